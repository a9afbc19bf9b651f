package fakeserver

import "slices"

// RemoveLiveJob deletes a live job, as the service does when its retention
// ends or its owner deletes it: later listings leave it out and GET
// /v2/transcription/{id} answers 404. It reports whether the job existed.
func (s *Server) RemoveLiveJob(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.liveNow() // one already past its retention is gone
	return s.live.remove(id)
}

// remove drops the job with that id; the listing order of the others stays.
func (st *liveStore) remove(id string) bool {
	e, ok := st.byID[idKey(id)]
	if !ok {
		return false
	}
	delete(st.byID, idKey(id))
	st.entries = slices.DeleteFunc(st.entries, func(x *liveEntry) bool { return x == e })
	return true
}
