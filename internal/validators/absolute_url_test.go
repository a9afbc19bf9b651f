package validators

import (
	"strings"
	"testing"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestAbsoluteHTTPURL(t *testing.T) {
	tests := map[string]struct {
		value     types.String
		wantError string
	}{
		"https":          {value: types.StringValue("https://example.com/a.wav?x=1")},
		"http":           {value: types.StringValue("http://127.0.0.1:8080/a")},
		"no scheme":      {value: types.StringValue("example.com/a.wav"), wantError: "the scheme must be http or https"},
		"other scheme":   {value: types.StringValue("ftp://example.com/a.wav"), wantError: "the scheme must be http or https"},
		"no host":        {value: types.StringValue("https:///a.wav"), wantError: "it has no host"},
		"port, no host":  {value: types.StringValue("https://:8080/a.wav"), wantError: "it has no host"},
		"colon, no host": {value: types.StringValue("http://:/a.wav"), wantError: "it has no host"},
		"user, no host":  {value: types.StringValue("https://user@:443/a.wav"), wantError: "it has no host"},
		"space in path":  {value: types.StringValue("https://example.com/My Recording.wav"), wantError: "it holds white space (at byte 22)"},
		"trailing space": {value: types.StringValue("https://example.com/a.wav "), wantError: "it holds white space"},
		"leading space":  {value: types.StringValue(" https://example.com/a.wav"), wantError: "it holds white space (at byte 0)"},
		"no-break space": {value: types.StringValue("https://example.com/a\u00a0b.wav"), wantError: "it holds white space"},
		// Go's parser takes a control character in a fragment.
		"NUL in a fragment": {value: types.StringValue("https://example.com/cb#t=a\u0000b"), wantError: "it holds a control character (at byte 26)"},
		"DEL in a query":    {value: types.StringValue("https://example.com/cb?t=\u007f"), wantError: "it holds a control character"},
		"encoded space":     {value: types.StringValue("https://example.com/My%20Recording.wav")},
		"IPv6 host":         {value: types.StringValue("http://[::1]:8080/a.wav")},
		"highest port":      {value: types.StringValue("https://example.com:65535/a.wav")},
		"port, zero-padded": {value: types.StringValue("https://example.com:00443/a.wav")},
		"port past 65535":   {value: types.StringValue("https://example.com:65536/a.wav"), wantError: "its port 65536 is not one from 1 to 65535"},
		"port 0":            {value: types.StringValue("http://example.com:0/a.wav"), wantError: "its port 0 is not one from 1 to 65535"},
		"not a URL":         {value: types.StringValue("http://exa[mple.com/a.wav"), wantError: "it does not parse as a URL."},
		"encoded host":      {value: types.StringValue("http://%41.example/a.wav"), wantError: "it does not parse as a URL."},
		"stray %":           {value: types.StringValue("https://media.example.com/100%.wav"), wantError: `it does not parse as a URL: a "%" must begin a percent-encoding of two hexadecimal digits (a "%" itself is written %25)`},
		"empty":             {value: types.StringValue(""), wantError: `got "": it is empty.`},
		"null":              {value: types.StringNull()},
		"unknown":           {value: types.StringUnknown()},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			diags := validateValue(AbsoluteHTTPURL(), path.Root("audio_url"), tc.value)
			frameworktest.CheckDiagnostics(t, diags.Errors(), tc.wantError)
			if tc.wantError != "" && !strings.Contains(diags.Errors()[0].Detail(), "Attribute audio_url ") {
				t.Errorf("error %q does not name audio_url", diags.Errors()[0].Detail())
			}
			// Quoted, a value with white space came out percent-encoded,
			// without the character the message points at.
			if strings.ContainsFunc(tc.value.ValueString(), unicode.IsSpace) && strings.Contains(diags.Errors()[0].Detail(), `got "`) {
				t.Errorf("error %q quotes the value percent-encoded", diags.Errors()[0].Detail())
			}
		})
	}
}

// A sensitive URL (it may carry a token) never appears in a diagnostic.
func TestSensitiveAbsoluteHTTPURL_redacts(t *testing.T) {
	const secret = "ftp://hooks.example.com/x?token=s3cr3t"
	diags := validateValue(SensitiveAbsoluteHTTPURL(), path.Root("callback_url"), types.StringValue(secret))
	frameworktest.CheckDiagnostics(t, diags.Errors(), "value not shown")
	if d := diags.Errors()[0]; strings.Contains(d.Detail()+d.Summary(), "s3cr3t") {
		t.Errorf("diagnostic shows the sensitive value: %s", d.Detail())
	}
	if d := diags.Errors()[0].Detail(); !strings.Contains(d, "Attribute callback_url ") || !strings.Contains(d, "the scheme must be http or https") {
		t.Errorf("diagnostic %q does not name callback_url and the rule", d)
	}
	// Nor at the attribute, whose line the CLI would print.
	if _, atAttribute := diags.Errors()[0].(diag.DiagnosticWithPath); atAttribute {
		t.Error("the diagnostic points at the attribute")
	}
}

// A URL that is not sensitive is shown without the parts that carry
// credentials: user information, and the query and fragment (a presigned
// URL's signature).
func TestAbsoluteHTTPURL_showsNoCredentials(t *testing.T) {
	for value, want := range map[string]string{
		"ftp://bucket.example.com/a.wav?X-Amz-Signature=s3cr3t": `got "ftp://bucket.example.com/a.wav?…"`,
		"ftp://user:s3cr3t@example.com/a.wav":                   `got "ftp://example.com/a.wav"`,
		"example.com/a.wav#s3cr3t":                              `got "example.com/a.wav?…"`,
		"https:///a.wav?sig=s3cr3t":                             `got "https:///a.wav?…"`,
	} {
		diags := validateValue(AbsoluteHTTPURL(), path.Root("audio_url"), types.StringValue(value))
		if diags.ErrorsCount() != 1 {
			t.Fatalf("%s: %v, want one error", value, diags)
		}
		d := diags.Errors()[0]
		if detail := d.Detail(); strings.Contains(detail+d.Summary(), "s3cr3t") || !strings.Contains(detail, want) {
			t.Errorf("%s: detail %q, want %s and no credentials", value, detail, want)
		}
	}
}
