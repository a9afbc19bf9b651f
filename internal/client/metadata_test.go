package client

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestMetadataKeepsNumbersAsWritten(t *testing.T) {
	var job JobCommon
	if err := json.Unmarshal([]byte(`{"id":"x","custom_metadata":{"user_id":12345678901234567891,"ratio":1.0,"o":{"n":[2.50e-3]},"s":"t"}}`), &job); err != nil {
		t.Fatal(err)
	}
	want := Metadata{"user_id": json.Number("12345678901234567891"), "ratio": json.Number("1.0"),
		"o": map[string]any{"n": []any{json.Number("2.50e-3")}}, "s": "t"}
	if !reflect.DeepEqual(job.CustomMetadata, want) {
		t.Errorf("got %#v, want %#v", job.CustomMetadata, want)
	}
	// Sent again as it came: every digit.
	if b, err := json.Marshal(job.CustomMetadata); err != nil || string(b) != `{"o":{"n":[2.50e-3]},"ratio":1.0,"s":"t","user_id":12345678901234567891}` {
		t.Errorf("encoded %s, %v", b, err)
	}
	for _, none := range []string{`{}`, `{"custom_metadata":null}`} {
		var j JobCommon
		if err := json.Unmarshal([]byte(none), &j); err != nil || j.CustomMetadata != nil {
			t.Errorf("%s: %#v, %v", none, j.CustomMetadata, err)
		}
	}
	var wrong JobCommon
	if err := json.Unmarshal([]byte(`{"custom_metadata":[1]}`), &wrong); err == nil {
		t.Error("a list for custom_metadata was taken")
	}
}

func TestNumberText(t *testing.T) {
	for in, want := range map[string]string{
		"1.0":                  "1",
		"2.50e-3":              "0.0025",
		"1e-7":                 "0.0000001",
		"1E+21":                "1000000000000000000000",
		"-0":                   "-0", // as jsonencode(jsondecode("-0")) writes it
		"12345678901234567891": "12345678901234567891",
		// Past about a thousand digits written out: kept as sent.
		"1e10000000":   "1e10000000",
		"-1e-10000000": "-1e-10000000",
		"1e1000000000": "1e1000000000",
	} {
		if got := NumberText(json.Number(in)); got != want {
			t.Errorf("NumberText(%s) = %.40q, want %q", in, got, want)
		}
	}
	// The bound: 1e1000 is written out, whole.
	if got := NumberText("1e1000"); len(got) != 1001 {
		t.Errorf("NumberText(1e1000) has %d characters, want 1001", len(got))
	}
}
