package provider

import (
	"errors"
	"maps"
	"testing"
)

func TestSetLogLevelsFromCLI(t *testing.T) {
	for _, tc := range []struct {
		name      string
		env, want map[string]string
		level     string
	}{
		{"no logging asked: plugin logs off", map[string]string{},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER_TRANSCRIPTION": "OFF"}, "OFF"},
		{"TF_LOG=TRACE keeps everything", map[string]string{"TF_LOG": "TRACE"},
			map[string]string{"TF_LOG": "TRACE", "TF_LOG_SDK": "TRACE", "TF_LOG_SDK_PROTO": "TRACE", "TF_LOG_SDK_FRAMEWORK": "TRACE", "TF_LOG_PROVIDER_TRANSCRIPTION": "TRACE"}, "TRACE"},
		{"lower case, as the CLI accepts it", map[string]string{"TF_LOG": "debug"},
			map[string]string{"TF_LOG": "debug", "TF_LOG_SDK": "DEBUG", "TF_LOG_SDK_PROTO": "DEBUG", "TF_LOG_SDK_FRAMEWORK": "DEBUG", "TF_LOG_PROVIDER_TRANSCRIPTION": "DEBUG"}, "DEBUG"},
		{"TF_LOG_PROVIDER wins over TF_LOG", map[string]string{"TF_LOG": "TRACE", "TF_LOG_PROVIDER": "WARN"},
			map[string]string{"TF_LOG": "TRACE", "TF_LOG_PROVIDER": "WARN", "TF_LOG_SDK": "WARN", "TF_LOG_SDK_PROTO": "WARN", "TF_LOG_SDK_FRAMEWORK": "WARN", "TF_LOG_PROVIDER_TRANSCRIPTION": "WARN"}, "WARN"},
		// Every level the CLI knows is kept as it is, not taken for TRACE.
		{"TF_LOG=INFO", map[string]string{"TF_LOG": "INFO"},
			map[string]string{"TF_LOG": "INFO", "TF_LOG_SDK": "INFO", "TF_LOG_SDK_PROTO": "INFO", "TF_LOG_SDK_FRAMEWORK": "INFO", "TF_LOG_PROVIDER_TRANSCRIPTION": "INFO"}, "INFO"},
		{"TF_LOG_PROVIDER=error", map[string]string{"TF_LOG_PROVIDER": "error"},
			map[string]string{"TF_LOG_PROVIDER": "error", "TF_LOG_SDK": "ERROR", "TF_LOG_SDK_PROTO": "ERROR", "TF_LOG_SDK_FRAMEWORK": "ERROR", "TF_LOG_PROVIDER_TRANSCRIPTION": "ERROR"}, "ERROR"},
		{"TF_LOG=off", map[string]string{"TF_LOG": "off"},
			map[string]string{"TF_LOG": "off", "TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER_TRANSCRIPTION": "OFF"}, "OFF"},
		{"JSON is TRACE", map[string]string{"TF_LOG": "JSON"},
			map[string]string{"TF_LOG": "JSON", "TF_LOG_SDK": "TRACE", "TF_LOG_SDK_PROTO": "TRACE", "TF_LOG_SDK_FRAMEWORK": "TRACE", "TF_LOG_PROVIDER_TRANSCRIPTION": "TRACE"}, "TRACE"},
		{"an unknown level is TRACE, as in the CLI", map[string]string{"TF_LOG": "1"},
			map[string]string{"TF_LOG": "1", "TF_LOG_SDK": "TRACE", "TF_LOG_SDK_PROTO": "TRACE", "TF_LOG_SDK_FRAMEWORK": "TRACE", "TF_LOG_PROVIDER_TRANSCRIPTION": "TRACE"}, "TRACE"},
		{"explicit SDK levels are kept", map[string]string{"TF_LOG_SDK_FRAMEWORK": "TRACE", "TF_LOG_SDK_PROTO": "INFO"},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "INFO", "TF_LOG_SDK_FRAMEWORK": "TRACE", "TF_LOG_PROVIDER_TRANSCRIPTION": "OFF"}, "OFF"},
		{"an explicit provider level is kept", map[string]string{"TF_LOG_PROVIDER_TRANSCRIPTION": "DEBUG"},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER_TRANSCRIPTION": "DEBUG"}, "OFF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := maps.Clone(tc.env)
			level, err := SetLogLevelsFromCLI(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if level != tc.level {
				t.Errorf("level %q, want %q", level, tc.level)
			}
			if !maps.Equal(env, tc.want) {
				t.Errorf("environment %v, want %v", env, tc.want)
			}
		})
	}
	t.Run("a failing setenv is reported", func(t *testing.T) {
		boom := errors.New("boom")
		if _, err := SetLogLevelsFromCLI(func(string) string { return "" }, func(string, string) error { return boom }); !errors.Is(err, boom) {
			t.Errorf("error %v, want %v", err, boom)
		}
	})
}
