package provider

import (
	"slices"
	"strings"
)

// sdkLogLevelVariables set the levels of terraform-plugin-go's and the
// framework's loggers. Unset, they log everything (TRACE).
var sdkLogLevelVariables = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// SetSDKLogLevelsFromCLI gives each SDK log level variable that the
// environment leaves unset the level the CLI keeps of provider logs, and
// returns that level. The CLI (Terraform and OpenTofu alike) drops provider
// log lines below TF_LOG_PROVIDER, else TF_LOG, and all of them when neither
// is set; the framework traces every value it converts, which is about a
// third of the provider's CPU time on large states, all of it thrown away
// unless someone asked for it. Variables set explicitly are left as they are.
func SetSDKLogLevelsFromCLI(getenv func(string) string, setenv func(string, string) error) (string, error) {
	level := cliProviderLogLevel(getenv("TF_LOG_PROVIDER"), getenv("TF_LOG"))
	for _, name := range sdkLogLevelVariables {
		if getenv(name) != "" {
			continue
		}
		if err := setenv(name, level); err != nil {
			return level, err
		}
	}
	return level, nil
}

// cliProviderLogLevel is the level the CLI filters provider logs at, read
// as the CLI reads it: the provider variable first, "JSON" meaning TRACE,
// and an unknown level taken as TRACE.
func cliProviderLogLevel(providerLevel, level string) string {
	if providerLevel != "" {
		level = providerLevel
	}
	level = strings.ToUpper(level)
	switch {
	case level == "":
		return "OFF"
	case slices.Contains([]string{"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF"}, level):
		return level
	}
	return "TRACE" // "JSON" and anything the CLI does not know
}
