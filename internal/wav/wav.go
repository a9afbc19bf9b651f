// Package wav writes the header of a PCM WAV file: what the fake server
// serves as a job's audio, what the demo records, and what tests upload.
package wav

import "encoding/binary"

// HeaderSize is the size of the header Header writes.
const HeaderSize = 44

// Header returns the header of a PCM WAV file whose data chunk, which
// follows it, holds dataBytes bytes of samples of bits bits on channels
// channels at rate samples per second.
func Header(channels uint16, rate uint32, bits uint16, dataBytes uint32) []byte {
	h := make([]byte, HeaderSize)
	copy(h[0:], "RIFF")
	binary.LittleEndian.PutUint32(h[4:], 36+dataBytes)
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16) // fmt chunk size
	binary.LittleEndian.PutUint16(h[20:], 1)  // PCM
	binary.LittleEndian.PutUint16(h[22:], channels)
	binary.LittleEndian.PutUint32(h[24:], rate)
	binary.LittleEndian.PutUint32(h[28:], rate*uint32(channels)*uint32(bits)/8) // byte rate
	binary.LittleEndian.PutUint16(h[32:], channels*bits/8)                      // block align
	binary.LittleEndian.PutUint16(h[34:], bits)
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], dataBytes)
	return h
}
