package fakeserver

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// preRecordedSeedNamespace makes the ids of seeded pre-recorded jobs: the
// same index always gives the same id.
var preRecordedSeedNamespace = uuid.MustParse("0d4c7a52-8e1b-5f3a-9c6d-2b7e4f1a8c90")

// preRecordedTeams are the values of seeded jobs' team and queue metadata.
var preRecordedTeams = []string{"support", "sales", "billing", "alpha"}

// seedPreRecorded adds n deterministic pre-recorded jobs (Options.PreRecordedJobs),
// ended over the week before now, to list, read, import and delete: a
// rehearsal of terraform query or of the transcription_jobs data source
// needs jobs made before it. Each is the same for the same index and clock
// time, whatever the number seeded; about one in ten ended in error. Their
// results are built here, as advance builds a job's when it ends.
// Under zero data retention none is seeded: the service keeps no job, and
// every job there has a callback.
func (s *Server) seedPreRecorded(n int, now time.Time) {
	if s.opts.ZeroDataRetention {
		return
	}
	for i := range n {
		j := s.seededPreRecordedJob(i, now)
		s.jobs[j.id] = j
		s.advance(j, now)
	}
}

// seededAges are the ages seeded jobs are created at: 15 minutes to a
// week, or within the retention when it is shorter, so that none has
// expired already (the newest expire about a retention after startup).
func (s *Server) seededAges() (oldest, newest time.Duration) {
	oldest, newest = 7*24*time.Hour, 15*time.Minute
	if r := s.opts.Retention; r > 0 && r < oldest {
		oldest, newest = r, min(newest, r/10)
	}
	return oldest, newest
}

// seededPreRecordedJob draws seeded job i: a request of the options most
// used (languages, diarization, subtitles, a summary, named entities),
// custom_metadata (team, queue, env, sometimes priority), created at one of
// seededAges and ended.
func (s *Server) seededPreRecordedJob(i int, now time.Time) *job {
	rng := rand.New(rand.NewPCG(uint64(i), 3))
	name := fmt.Sprintf("call-%04d", i)
	if rng.IntN(10) == 0 {
		name += "-fail-422" // failureFor: the job ends in error 422
	}
	yes := true
	req := &client.InitTranscriptionRequest{AudioURL: "https://media.example.com/seed/" + name + ".wav"}
	if rng.IntN(2) == 0 {
		req.LanguageConfig = &client.LanguageConfig{Languages: []string{liveLanguages[rng.IntN(len(liveLanguages))]}}
	}
	if rng.IntN(2) == 0 {
		req.Diarization = &yes
	}
	if rng.IntN(3) == 0 {
		req.Subtitles = &yes
		req.SubtitlesConfig = &client.SubtitlesConfig{Formats: []string{"srt"}}
	}
	if rng.IntN(3) == 0 {
		req.Summarization = &yes
	}
	if rng.IntN(5) == 0 {
		req.NamedEntityRecognition = &yes
	}
	if rng.IntN(10) != 0 {
		// The keys and values the examples filter on.
		req.CustomMetadata = map[string]any{
			"team":  preRecordedTeams[rng.IntN(len(preRecordedTeams))],
			"queue": preRecordedTeams[rng.IntN(len(preRecordedTeams))],
			"env":   liveEnvs[rng.IntN(len(liveEnvs))],
		}
		if rng.IntN(4) == 0 {
			req.CustomMetadata["priority"] = float64(1 + rng.IntN(3)) // a number as decoding JSON gives it
		}
	}
	id := uuid.NewSHA1(preRecordedSeedNamespace, []byte(strconv.Itoa(i))).String()
	j := s.newJob(id, uuid.NewSHA1(preRecordedSeedNamespace, []byte("request-"+id)).String(), req)
	oldest, newest := s.seededAges()
	j.createdAt = asShown(now.Add(-newest - randomDuration(rng, oldest-newest)))
	j.startedAt = j.createdAt
	// Ended by now, whatever -processing-time: a seeded job running would
	// count against -max-concurrent-jobs and run beside
	// -max-processing-jobs' slots.
	j.processing = min(j.processing, now.Sub(j.createdAt))
	s.resolveJobAudio(j, "")
	return j
}
