package validators

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ validator.String = absoluteHTTPURLValidator{}

// absoluteHTTPURLValidator requires an absolute http or https URL with a host.
type absoluteHTTPURLValidator struct {
	// sensitive keeps the value out of the diagnostic: a callback URL may
	// carry a token, and diagnostics are printed and logged.
	sensitive bool
}

// AbsoluteHTTPURL returns a validator requiring an absolute http(s) URL.
func AbsoluteHTTPURL() validator.String { return absoluteHTTPURLValidator{} }

// SensitiveAbsoluteHTTPURL is AbsoluteHTTPURL for sensitive attributes: its
// diagnostics neither repeat the value nor point at its line.
func SensitiveAbsoluteHTTPURL() validator.String {
	return absoluteHTTPURLValidator{sensitive: true}
}

func (v absoluteHTTPURLValidator) Description(_ context.Context) string {
	return "value must be an absolute http or https URL"
}

func (v absoluteHTTPURLValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v absoluteHTTPURLValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	err := checkAbsoluteHTTPURL(req.ConfigValue.ValueString())
	if err == nil {
		return
	}
	if v.sensitive {
		// Not at the attribute: the CLI would print its line, a literal
		// value and all. The text names it; the CLI shows its block.
		resp.Diagnostics.AddError("Invalid URL", fmt.Sprintf("Attribute %s %s: %s (value not shown: a callback URL may carry a token).", req.Path, v.Description(ctx), err))
		return
	}
	raw := req.ConfigValue.ValueString()
	if strings.ContainsFunc(raw, unusableInURL) {
		// Quoted redacted, the value would come out percent-encoded, without
		// the character the message points at: the CLI prints the
		// attribute's line as written.
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid URL", fmt.Sprintf("Attribute %s %s: %s.", req.Path, v.Description(ctx), err))
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid URL", fmt.Sprintf("Attribute %s %s, got %q: %s.", req.Path, v.Description(ctx), client.RedactedURL(raw), err))
}

// strayPercent matches a "%" that begins no percent-encoding.
var strayPercent = regexp.MustCompile(`%([^0-9A-Fa-f]|[0-9A-Fa-f][^0-9A-Fa-f]|[0-9A-Fa-f]?$)`)

// unusableInURL is a character no URL holds, which url.Parse takes.
func unusableInURL(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

func checkAbsoluteHTTPURL(raw string) error {
	if raw == "" {
		return fmt.Errorf("it is empty")
	}
	// url.Parse takes white space in a path or query, which no URI holds
	// (RFC 3986): a file name with a space, or one left around the URL.
	if i := strings.IndexFunc(raw, unicode.IsSpace); i >= 0 {
		return fmt.Errorf("it holds white space (at byte %d), which a URL cannot: percent-encode it (a space is %%20) or remove it", i)
	}
	// Nor control characters, which url.Parse takes in a fragment.
	if i := strings.IndexFunc(raw, unicode.IsControl); i >= 0 {
		return fmt.Errorf("it holds a control character (at byte %d), which a URL cannot: percent-encode it or remove it", i)
	}
	u, err := url.Parse(raw)
	if err != nil {
		if escape := url.EscapeError(""); errors.As(err, &escape) && strayPercent.MatchString(raw) {
			// Not quoted: the escape may be part of a token.
			return fmt.Errorf(`it does not parse as a URL: a "%%" must begin a percent-encoding of two hexadecimal digits (a "%%" itself is written %%25)`)
		}
		return fmt.Errorf("it does not parse as a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("the scheme must be http or https")
	}
	// Host alone is not enough: "https://:8080/a.wav" has a port and no
	// host name, which no one can fetch from.
	if u.Hostname() == "" {
		return fmt.Errorf("it has no host")
	}
	if port := client.PortOutOfRange(u); port != "" {
		return fmt.Errorf("its port %s is not one from 1 to 65535", port)
	}
	return nil
}
