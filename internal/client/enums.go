package client

import "regexp"

// Enumerations and bounds of the service's interface, shared by the provider's
// plan-time validators and the fake server so both enforce the same contract.

// Models accepted in InitTranscriptionRequest.model.
const (
	ModelOne    = "model-1"
	ModelThree  = "model-3"
	ModelFusion = "model-fusion"
)

// DefaultModel is used by the service when model is omitted.
const DefaultModel = ModelOne

// Models lists TranscriptionSupportedModels.
var Models = []string{ModelOne, ModelThree, ModelFusion}

// ModelThreeLanguages are the only languages model-3 transcribes.
var ModelThreeLanguages = []string{"en", "fr", "de", "es", "it"}

// TranscriptionLanguages is TranscriptionLanguageCodeEnum.
var TranscriptionLanguages = []string{
	"af", "am", "ar", "as", "az", "ba", "be", "bg", "bn", "bo", "br", "bs", "ca", "cs", "cy", "da",
	"de", "el", "en", "es", "et", "eu", "fa", "fi", "fo", "fr", "gl", "gu", "ha", "haw", "he", "hi",
	"hr", "ht", "hu", "hy", "id", "is", "it", "ja", "jw", "ka", "kk", "km", "kn", "ko", "la", "lb",
	"ln", "lo", "lt", "lv", "mg", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "ne", "nl", "nn",
	"no", "oc", "pa", "pl", "ps", "pt", "ro", "ru", "sa", "sd", "si", "sk", "sl", "sn", "so", "sq",
	"sr", "su", "sv", "sw", "ta", "te", "tg", "tk", "tl", "tr", "tt", "uk", "ur", "uz", "vi", "yi",
	"yo", "zh",
}

// TranslationLanguages is TranslationLanguageCodeEnum: the transcription
// languages plus "wo", which is a translation target only.
var TranslationLanguages = func() []string {
	out := make([]string, 0, len(TranscriptionLanguages)+1)
	for _, l := range TranscriptionLanguages {
		out = append(out, l)
		if l == "vi" {
			out = append(out, "wo")
		}
	}
	return out
}()

// PIIEntityTypes is PiiRedactionEntityTypeEnum.
var PIIEntityTypes = []string{
	"APPI", "APPI_SENSITIVE", "CCI", "CORE_ENTITIES", "CPRA", "GDPR", "GDPR_SENSITIVE",
	"HEALTH_INFORMATION", "HIPAA_SAFE_HARBOR", "LIDI", "NUMERICAL_EXCL_PCI", "PCI",
	"QUEBEC_PRIVACY_ACT", "ACCOUNT_NUMBER", "AGE", "DATE", "DATE_INTERVAL", "DOB",
	"DRIVER_LICENSE", "DURATION", "EMAIL_ADDRESS", "EVENT", "FILENAME", "GENDER",
	"HEALTHCARE_NUMBER", "IP_ADDRESS", "LANGUAGE", "LOCATION", "LOCATION_ADDRESS",
	"LOCATION_ADDRESS_STREET", "LOCATION_CITY", "LOCATION_COORDINATE", "LOCATION_COUNTRY",
	"LOCATION_STATE", "LOCATION_ZIP", "MARITAL_STATUS", "MONEY", "NAME", "NAME_FAMILY",
	"NAME_GIVEN", "NAME_MEDICAL_PROFESSIONAL", "NUMERICAL_PII", "OCCUPATION", "ORGANIZATION",
	"ORGANIZATION_MEDICAL_FACILITY", "ORIGIN", "PASSPORT_NUMBER", "PASSWORD", "PHONE_NUMBER",
	"PHYSICAL_ATTRIBUTE", "POLITICAL_AFFILIATION", "RELIGION", "SEXUALITY", "SSN", "TIME", "URL",
	"USERNAME", "VEHICLE_ID", "ZODIAC_SIGN", "BLOOD_TYPE", "CONDITION", "DOSE", "DRUG", "INJURY",
	"MEDICAL_PROCESS", "STATISTICS", "BANK_ACCOUNT", "CREDIT_CARD", "CREDIT_CARD_EXPIRATION", "CVV",
	"ROUTING_NUMBER", "CORPORATE_ACTION", "DAY", "EFFECT", "FINANCIAL_METRIC", "MEDICAL_CODE",
	"MONTH", "ORGANIZATION_ID", "PRODUCT", "PROJECT", "TREND", "YEAR",
}

// Other enumerations, beside their fields in the spec.
var (
	CallbackMethods    = []string{"POST", "PUT"}
	SubtitleFormats    = []string{"srt", "vtt"}
	SubtitleStyles     = []string{"default", "compliance"}
	TranslationModels  = []string{"base", "batch", "enhanced"}
	SummaryTypes       = []string{"general", "bullet_points", "concise"}
	ProcessedTextTypes = []string{"MARKER", "MASK"}
	JobStatuses        = []string{StatusQueued, StatusProcessing, StatusDone, StatusError}
)

// LLMModelPattern is the `<provider>/<model_name>` form the spec gives an
// audio-to-LLM model identifier.
var LLMModelPattern = regexp.MustCompile(`^[^/\s]+/\S+$`)

// JobIDPattern is the form of a job's id: a UUID, as the spec gives it, in
// either case.
var JobIDPattern = regexp.MustCompile(`^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`)

// Job statuses. A job moves queued → processing → done or error, and never
// leaves done or error.
const (
	StatusQueued     = "queued"
	StatusProcessing = "processing"
	StatusDone       = "done"
	StatusError      = "error"
)

// IsFinal reports whether a job in this status will never change again.
func IsFinal(status string) bool { return status == StatusDone || status == StatusError }

// Job kinds.
const (
	KindPreRecorded = "pre-recorded"
	KindLive        = "live"
)

// Defaults the service applies when a field is omitted.
const (
	DefaultCallbackMethod   = "POST"
	DefaultSubtitleFormat   = "srt"
	DefaultSubtitleStyle    = "default"
	DefaultTranslationModel = "batch"
	DefaultSummaryType      = "general"
	DefaultLiveListLimit    = 20
)

// Bounds from the spec's Limits table.
const (
	MinSubtitleMinimumDuration  = 0.0
	MinSubtitleMaximumDuration  = 1.0
	MaxSubtitleMaximumDuration  = 30.0
	MinSubtitleCharactersPerRow = 1
	MinSubtitleRowsPerCaption   = 1
	MaxSubtitleRowsPerCaption   = 5
	MinNumberOfSpeakers         = 1
	MinSpeakersBound            = 0
	MinIntensity                = 0.0
	MaxIntensity                = 1.0
	MinListOffset               = 0
	MinListLimit                = 1
	ServiceKeyHeader            = "x-service-key"
	DateFilterLayout            = "2006-01-02"
	InterfaceVersion            = 2
)

// Contains reports whether v is one of values.
func Contains(values []string, v string) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}
