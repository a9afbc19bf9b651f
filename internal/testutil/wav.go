package testutil

import "github.com/transcription-service/terraform-provider-transcription/internal/wav"

// SilentWAV is a silent 16-bit PCM WAV file of the given length, channels
// and sample rate: a recording to upload in tests.
func SilentWAV(seconds float64, channels, rate int) []byte {
	dataBytes := int(seconds*float64(rate)) * channels * 2
	return append(wav.Header(uint16(channels), uint32(rate), 16, uint32(dataBytes)), make([]byte, dataBytes)...)
}
