package wav

import (
	"encoding/binary"
	"testing"
)

func TestHeader(t *testing.T) {
	h := Header(2, 16000, 16, 64000)
	le16 := func(at int) uint16 { return binary.LittleEndian.Uint16(h[at:]) }
	le32 := func(at int) uint32 { return binary.LittleEndian.Uint32(h[at:]) }
	for name, c := range map[string]struct{ got, want any }{
		"size":        {len(h), HeaderSize},
		"RIFF":        {string(h[0:4]), "RIFF"},
		"RIFF size":   {le32(4), uint32(36 + 64000)},
		"WAVE fmt":    {string(h[8:16]), "WAVEfmt "},
		"fmt size":    {le32(16), uint32(16)},
		"PCM":         {le16(20), uint16(1)},
		"channels":    {le16(22), uint16(2)},
		"rate":        {le32(24), uint32(16000)},
		"byte rate":   {le32(28), uint32(64000)},
		"block align": {le16(32), uint16(4)},
		"bits":        {le16(34), uint16(16)},
		"data":        {string(h[36:40]), "data"},
		"data size":   {le32(40), uint32(64000)},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", name, c.got, c.want)
		}
	}
}
