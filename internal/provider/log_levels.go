package provider

import (
	"path"
	"slices"
	"strings"
)

// providerLogLevelVariable sets the level of the provider's own logger:
// TF_LOG_PROVIDER_ and the provider's type, as terraform-plugin-go derives
// it from the provider's address.
var providerLogLevelVariable = "TF_LOG_PROVIDER_" + strings.ToUpper(strings.ReplaceAll(path.Base(Address), "-", "_"))

// pluginLogLevelVariables set the levels of the plugin's loggers:
// terraform-plugin-go's, the framework's, and the provider's own. Unset,
// each logs everything (TRACE).
var pluginLogLevelVariables = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", providerLogLevelVariable}

// SetLogLevelsFromCLI gives each of the plugin's log level variables that
// the environment leaves unset the level the CLI keeps of provider logs,
// and returns that level. The CLI (Terraform and OpenTofu alike) drops
// provider log lines below TF_LOG_PROVIDER, else TF_LOG, and all of them
// when neither is set; the plugin would otherwise make every line at TRACE
// and send it to the CLI only to be dropped: the framework traces every
// value it converts, about a third of the provider's CPU time on large
// states, and the client traces every answer's first 4 KiB. Variables set
// explicitly are left as they are.
func SetLogLevelsFromCLI(getenv func(string) string, setenv func(string, string) error) (string, error) {
	level := cliProviderLogLevel(getenv("TF_LOG_PROVIDER"), getenv("TF_LOG"))
	for _, name := range pluginLogLevelVariables {
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
