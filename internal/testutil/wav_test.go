package testutil

import (
	"encoding/binary"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/wav"
)

func TestSilentWAV(t *testing.T) {
	b := SilentWAV(1.5, 2, 8000)
	const data = 8000 * 3 / 2 * 2 * 2 // 12,000 frames of 2 channels of 2 bytes
	if len(b) != wav.HeaderSize+data {
		t.Fatalf("%d bytes, want %d", len(b), wav.HeaderSize+data)
	}
	if ch, rate, bits, size := binary.LittleEndian.Uint16(b[22:]), binary.LittleEndian.Uint32(b[24:]), binary.LittleEndian.Uint16(b[34:]), binary.LittleEndian.Uint32(b[40:]); ch != 2 || rate != 8000 || bits != 16 || size != data {
		t.Fatalf("header: %d channels, %d Hz, %d bits, %d data bytes", ch, rate, bits, size)
	}
	for i, c := range b[wav.HeaderSize:] {
		if c != 0 {
			t.Fatalf("byte %d of the samples is %d, want silence", i, c)
		}
	}
}
