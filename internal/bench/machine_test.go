package bench

import "testing"

func TestVersionLine_skipsWarnings(t *testing.T) {
	for out, want := range map[string]string{
		"Terraform v1.8.5\non linux_amd64\n": "Terraform v1.8.5",
		"\nWarning: Unable to open CLI configuration file\n\nThere are some problems.\n\nOpenTofu v1.12.6\non linux_amd64\n": "OpenTofu v1.12.6",
		"something else\n": "",
	} {
		if got := versionLine(out); got != want {
			t.Errorf("versionLine(%q) = %q, want %q", out, got, want)
		}
	}
}
