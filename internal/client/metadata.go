package client

import (
	"bytes"
	"encoding/json"
	"math/big"
)

// Metadata is a job's custom_metadata: JSON values by key. The service
// takes any JSON value; numbers are kept as written (json.Number), not
// rounded to a float64, since ids above 2^53 (an order's, a user's) are
// common in metadata.
type Metadata map[string]any

// UnmarshalJSON reads numbers, nested ones too, as json.Number.
func (m *Metadata) UnmarshalJSON(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var decoded map[string]any
	if err := d.Decode(&decoded); err != nil {
		return err
	}
	*m = decoded
	return nil
}

// NumberText is n as Terraform's jsonencode writes a number: its exact
// decimal, read as cty reads one (512 bits), without exponent or trailing
// zeros (1 for 1.0, every digit of an id above 2^53). A number whose
// decimal would run past about a thousand digits (1e10000000: ten million)
// keeps the text it was sent as: writing it out would take seconds and
// megabytes of state.
func NumberText(n json.Number) string {
	f, _, err := big.ParseFloat(string(n), 10, 512, big.ToNearestEven)
	if err != nil || f.IsInf() {
		return string(n)
	}
	if exp := f.MantExp(nil); exp > maxWrittenOutBinaryExponent || exp < -maxWrittenOutBinaryExponent {
		return string(n)
	}
	return f.Text('f', -1)
}

// maxWrittenOutBinaryExponent: 2^3400 is about 10^1023.
const maxWrittenOutBinaryExponent = 3400
