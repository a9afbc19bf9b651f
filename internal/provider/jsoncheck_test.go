package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

var _ statecheck.StateCheck = jsonValueCheck{}

// jsonValueCheck checks a value inside a JSON attribute: the attribute at
// attr of the resource or data source at address holds JSON text, which is
// decoded and walked with inside (a string selects an object key, nil when
// missing; an int a list element).
type jsonValueCheck struct {
	address string
	attr    tfjsonpath.Path
	inside  []any
	check   func(any) error
}

// expectJSONValue checks that the decoded value at inside equals want, as
// encoding/json decodes into any (numbers are float64).
func expectJSONValue(address string, attr tfjsonpath.Path, want any, inside ...any) jsonValueCheck {
	return jsonValueCheck{address: address, attr: attr, inside: inside, check: func(got any) error {
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("got %#v, want %#v", got, want)
		}
		return nil
	}}
}

// expectJSONLength checks that the decoded value at inside is a list of n
// elements.
func expectJSONLength(address string, attr tfjsonpath.Path, n int, inside ...any) jsonValueCheck {
	return jsonValueCheck{address: address, attr: attr, inside: inside, check: func(got any) error {
		if l, ok := got.([]any); !ok || len(l) != n {
			return fmt.Errorf("got %#v, want a list of %d", got, n)
		}
		return nil
	}}
}

// expectJSONPresent checks that the decoded value at inside is there: not
// null, and not an empty text or list.
func expectJSONPresent(address string, attr tfjsonpath.Path, inside ...any) jsonValueCheck {
	return jsonValueCheck{address: address, attr: attr, inside: inside, check: func(got any) error {
		switch v := got.(type) {
		case nil:
			return fmt.Errorf("missing")
		case string:
			if v == "" {
				return fmt.Errorf("empty text")
			}
		case []any:
			if len(v) == 0 {
				return fmt.Errorf("empty list")
			}
		}
		return nil
	}}
}

func (c jsonValueCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		resp.Error = fmt.Errorf("%s: no state", c.address)
		return
	}
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address != c.address {
			continue
		}
		v, err := tfjsonpath.Traverse(r.AttributeValues, c.attr)
		if err != nil {
			resp.Error = fmt.Errorf("%s: %w", c.address, err)
			return
		}
		text, ok := v.(string)
		if !ok {
			resp.Error = fmt.Errorf("%s %s: %#v is not JSON text", c.address, c.attr, v)
			return
		}
		var decoded any
		if err := json.Unmarshal([]byte(text), &decoded); err != nil {
			resp.Error = fmt.Errorf("%s %s is not JSON: %w", c.address, c.attr, err)
			return
		}
		got, err := walkDecodedJSON(decoded, c.inside)
		if err == nil {
			err = c.check(got)
		}
		if err != nil {
			resp.Error = fmt.Errorf("%s %s %v: %w", c.address, c.attr, c.inside, err)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: not in state", c.address)
}

// walkDecodedJSON walks a value encoding/json decoded into any.
func walkDecodedJSON(v any, path []any) (any, error) {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			o, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("cannot select %q in %#v", s, v)
			}
			v = o[s]
		case int:
			l, ok := v.([]any)
			if !ok || s < 0 || s >= len(l) {
				return nil, fmt.Errorf("cannot index %d in %#v", s, v)
			}
			v = l[s]
		default:
			return nil, fmt.Errorf("path step %#v is neither a key nor an index", step)
		}
	}
	return v, nil
}
