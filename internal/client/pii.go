package client

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// UnmarshalJSON reads PiiRedactionConfigDTO, leaving out fields it does not
// know as every decoding of the service's answers does, and accepts
// entity_types in either form the contract gives: an array, as the spec's
// samples send it, or a single value ("value(s)" in the spec; the official
// client types it as one PiiRedactionEntityType). Entity types are always
// sent as an array.
func (c *PIIRedactionConfig) UnmarshalJSON(data []byte) error {
	var raw struct {
		EntityTypes       json.RawMessage `json:"entity_types"`
		ProcessedTextType *string         `json:"processed_text_type"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	var types []string
	if trimmed := bytes.TrimSpace(raw.EntityTypes); len(trimmed) > 0 && trimmed[0] == '"' {
		var one string
		if err := json.Unmarshal(trimmed, &one); err != nil {
			return fmt.Errorf("pii_redaction_config.entity_types: %w", err)
		}
		types = []string{one}
	} else if len(trimmed) > 0 {
		if err := json.Unmarshal(trimmed, &types); err != nil {
			return fmt.Errorf("pii_redaction_config.entity_types: %w", err)
		}
	}
	*c = PIIRedactionConfig{EntityTypes: types, ProcessedTextType: raw.ProcessedTextType}
	return nil
}
