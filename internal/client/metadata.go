package client

import (
	"bytes"
	"encoding/json"
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
