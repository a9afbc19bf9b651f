package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// PromptPartsSeparator joins the parts of a prompt sent as an array.
const PromptPartsSeparator = "\n"

// UnmarshalJSON reads AudioToLlmListConfigDTO, leaving out fields it does
// not know as every decoding of the service's answers does, and accepts
// each prompt in either form the service's contract
// gives: a string, as the spec's samples send it, or an array of strings,
// as its schema and the official client's types (Array<Array<any>>) type
// it. An array is read as one prompt, its parts joined by
// PromptPartsSeparator. Prompts are always sent as strings.
func (c *AudioToLLMConfig) UnmarshalJSON(data []byte) error {
	var raw struct {
		Prompts []json.RawMessage `json:"prompts"`
		Model   *string           `json:"model"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	var prompts []string
	if raw.Prompts != nil {
		prompts = make([]string, 0, len(raw.Prompts))
	}
	for i, p := range raw.Prompts {
		text, err := PromptText(p)
		if err != nil {
			return fmt.Errorf("audio_to_llm_config.prompts[%d]: %w", i, err)
		}
		prompts = append(prompts, text)
	}
	*c = AudioToLLMConfig{Prompts: prompts, Model: raw.Model}
	return nil
}

// PromptText reads one prompt: a JSON string, or an array of strings whose
// parts are joined by PromptPartsSeparator.
func PromptText(data json.RawMessage) (string, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var parts []string
		if err := json.Unmarshal(trimmed, &parts); err != nil {
			return "", fmt.Errorf("a prompt sent as an array must hold strings only")
		}
		return strings.Join(parts, PromptPartsSeparator), nil
	}
	var s string
	if err := json.Unmarshal(trimmed, &s); err != nil {
		return "", fmt.Errorf("a prompt must be a string or an array of strings")
	}
	return s, nil
}
