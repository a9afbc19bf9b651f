package fakeserver

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// liveSeedNamespace makes the ids of seeded live jobs: the same index always
// gives the same id.
var liveSeedNamespace = uuid.MustParse("6f1c2b1e-3d4a-5b6c-8d7e-9f0a1b2c3d4e")

var (
	liveTeams     = []string{"alpha", "bravo", "charlie", "delta"}
	liveEnvs      = []string{"prod", "staging"}
	liveLanguages = []string{"en", "fr", "de", "es", "it", "pt", "nl", "ja"}
)

// liveSeed is what a seeded live job is built from. A session unfinished
// when seeded moves on with the clock, as the service's do: queued until
// recordingFrom, processing while it records length seconds of audio (and
// 2 s more), then done or error (outcome).
type liveSeed struct {
	index         int
	recordingFrom time.Time
	length        float64 // seconds of audio in all
	outcome       string
	builtAt       time.Time // the clock time the record was built for
}

// sessionEndGap is the time between a session's last audio and its end.
const sessionEndGap = 2 * time.Second

// statusAt is the session's status at now.
func (sd *liveSeed) statusAt(now time.Time) string {
	switch {
	case now.Before(sd.recordingFrom):
		return client.StatusQueued
	case now.Before(sd.completedAt()):
		return client.StatusProcessing
	}
	return sd.outcome
}

// completedAt is when the session ends.
func (sd *liveSeed) completedAt() time.Time {
	return sd.recordingFrom.Add(secondsToDuration(sd.length) + sessionEndGap)
}

// secondsToDuration is a length in seconds (to the millisecond) as a
// duration, exactly: 549.526 * 1e9 is 549525999999.9999 as floats, and a
// session ending a nanosecond before the millisecond its record shows
// would still be processing, or unexpired, at that instant.
func secondsToDuration(seconds float64) time.Duration {
	return time.Duration(math.Round(seconds*1000)) * time.Millisecond
}

// seededLength is the length, in seconds, of seeded job i's audio: 10 s to
// 10 min, the first draw of the stream its record is built from.
func seededLength(i int) float64 {
	return math.Round((10+rand.New(rand.NewPCG(uint64(i), 2)).Float64()*590)*1000) / 1000
}

// finishedLiveSeedAge is the least age of a seeded session that has ended:
// more than the longest (10 minutes of audio) takes.
const finishedLiveSeedAge = 15 * time.Minute

// seededLiveEntry draws the filterable fields of seeded job i: a job is the
// same for the same index, clock time and retention, whatever the number
// seeded. Finished jobs are spread over the seven days before now (at least
// 15 minutes old, so they ended in the past); with a shorter retention,
// they ended within it, so that none has expired already. Unfinished ones
// are recent.
func seededLiveEntry(i int, now time.Time, retention time.Duration) *liveEntry {
	rng := rand.New(rand.NewPCG(uint64(i), 1))
	var status string
	var age time.Duration
	switch roll := rng.IntN(100); {
	case roll < 80:
		status = client.StatusDone
	case roll < 90:
		status = client.StatusError
	case roll < 95:
		status = client.StatusProcessing
	default:
		status = client.StatusQueued
	}
	switch status {
	case client.StatusDone, client.StatusError:
		age = finishedLiveSeedAge + randomDuration(rng, 7*24*time.Hour-finishedLiveSeedAge)
		if retention > 0 && retention < 7*24*time.Hour {
			// Ended within the retention (a tenth of it at the least, up
			// to a minute), created its recording's length before that.
			newest := min(retention/10, time.Minute)
			ended := newest + randomDuration(rng, retention-newest)
			age = ended + secondsToDuration(seededLength(i)) + sessionEndGap
		}
	case client.StatusProcessing:
		age = time.Second + randomDuration(rng, 10*time.Minute)
	default:
		age = time.Second + randomDuration(rng, time.Minute)
	}
	var metadata map[string]any
	if rng.IntN(10) != 0 {
		metadata = map[string]any{
			"team": liveTeams[rng.IntN(len(liveTeams))],
			"env":  liveEnvs[rng.IntN(len(liveEnvs))],
		}
		if rng.IntN(4) == 0 {
			metadata["priority"] = float64(1 + rng.IntN(3)) // a number as decoding JSON gives it
		}
	}
	createdAt := asShown(now.Add(-age))
	sd := &liveSeed{index: i, recordingFrom: createdAt, length: seededLength(i), outcome: status}
	switch status {
	case client.StatusProcessing:
		// Recording since it was created, for as long again as drawn.
		sd.length += math.Floor(age.Seconds()*1000) / 1000
		sd.outcome = client.StatusDone
		if rng.IntN(10) == 0 {
			sd.outcome = client.StatusError
		}
	case client.StatusQueued:
		// Starts within two minutes of its creation.
		sd.recordingFrom = asShown(createdAt.Add(time.Minute + randomDuration(rng, time.Minute)))
		sd.outcome = client.StatusDone
	}
	return &liveEntry{
		id:             uuid.NewSHA1(liveSeedNamespace, []byte(strconv.Itoa(i))).String(),
		createdAt:      createdAt,
		status:         status,
		customMetadata: metadata,
		seed:           sd,
	}
}

// build makes the full record of a seeded job from a second random stream
// of its index.
func (sd *liveSeed) build(e *liveEntry) *client.LiveJob {
	rng := rand.New(rand.NewPCG(uint64(sd.index), 2))
	pick := func(values []string) string { return values[rng.IntN(len(values))] }
	flag := func(percent int) *bool { return pointerTo(rng.IntN(100) < percent) }

	rng.Float64() // the length drawn (seededLength)
	duration := sd.length
	if e.status == client.StatusProcessing {
		// Recorded so far: no more than the time since the session began.
		duration = min(duration, math.Floor(sd.builtAt.Sub(sd.recordingFrom).Seconds()*1000)/1000)
	}
	channels := int64(1 + rng.IntN(2))
	lang := pick(liveLanguages)

	params := &client.LiveRequestParams{
		Encoding:                          pointerTo("wav/pcm"),
		BitDepth:                          pointerTo([]int64{16, 16, 16, 8, 24, 32}[rng.IntN(6)]),
		SampleRate:                        pointerTo([]int64{8000, 16000, 16000, 44100, 48000}[rng.IntN(5)]),
		Channels:                          pointerTo(channels),
		Model:                             pointerTo(client.ModelOne), // the only live model
		Endpointing:                       pointerTo([]float64{0.01, 0.05, 0.1, 0.3}[rng.IntN(4)]),
		MaximumDurationWithoutEndpointing: pointerTo([]float64{5, 10, 30}[rng.IntN(3)]),
		LanguageConfig:                    &client.LanguageConfig{Languages: []string{lang}, CodeSwitching: flag(20)},
		PreProcessing: &client.LivePreProcessing{
			AudioEnhancer:   flag(30),
			SpeechThreshold: pointerTo([]float64{0.3, 0.5, 0.6, 0.8}[rng.IntN(4)]),
		},
		RealtimeProcessing: &client.LiveRealtimeProcessing{
			CustomVocabulary:       flag(30),
			CustomSpelling:         flag(20),
			Translation:            flag(30),
			NamedEntityRecognition: flag(40),
			SentimentAnalysis:      flag(40),
		},
		PostProcessing: &client.LivePostProcessing{
			Summarization:  flag(40),
			Chapterization: flag(20),
		},
		MessagesConfig: randomMessageFlags(flag),
		Callback:       flag(25),
	}
	rt := params.RealtimeProcessing
	if *rt.CustomVocabulary {
		rt.CustomVocabularyConfig = &client.CustomVocabularyConfig{
			Vocabulary:       []client.VocabularyEntry{{Value: "Kubernetes"}, {Value: "Terraform", Intensity: pointerTo(0.6)}},
			DefaultIntensity: pointerTo(0.5),
		}
	}
	if *rt.CustomSpelling {
		rt.CustomSpellingConfig = &client.CustomSpellingConfig{SpellingDictionary: map[string][]string{"SQL": {"sequel"}}}
	}
	if *rt.Translation {
		rt.TranslationConfig = &client.TranslationConfig{
			TargetLanguages:         []string{pick([]string{"fr", "es", "de", "wo"})},
			Model:                   pointerTo(pick(client.TranslationModels)),
			MatchOriginalUtterances: pointerTo(true),
			Lipsync:                 pointerTo(true),
			ContextAdaptation:       pointerTo(true),
			Informal:                pointerTo(false),
		}
	}
	if *params.PostProcessing.Summarization {
		params.PostProcessing.SummarizationConfig = &client.SummarizationConfig{Type: pointerTo(pick(client.SummaryTypes))}
	}
	if *params.Callback {
		team := "default"
		if e.customMetadata != nil {
			team = fmt.Sprint(e.customMetadata["team"])
		}
		params.CallbackConfig = &client.LiveCallbackConfig{
			URL:                pointerTo("https://hooks.example.com/live/" + team),
			LiveMessagesConfig: *randomMessageFlags(flag),
		}
	}

	short := e.id[:8]
	job := &client.LiveJob{
		JobCommon: client.JobCommon{
			ID:                  e.id,
			RequestID:           uuid.NewSHA1(liveSeedNamespace, []byte("request-"+e.id)).String(),
			Version:             client.InterfaceVersion,
			Status:              e.status,
			CreatedAt:           formatTimestamp(e.createdAt),
			Kind:                client.KindLive,
			CustomMetadata:      e.customMetadata,
			PostSessionMetadata: json.RawMessage(`{}`),
		},
		RequestParams: params,
	}
	audio := Audio{Duration: duration, Channels: channels, Filename: "live-" + short + ".wav"}
	if e.status != client.StatusQueued {
		job.File = &client.FileInfo{
			ID:               uuid.NewSHA1(liveSeedNamespace, []byte("file-"+e.id)).String(),
			Filename:         pointerTo(audio.Filename),
			AudioDuration:    pointerTo(duration),
			NumberOfChannels: pointerTo(channels),
		}
	}
	completedAt := sd.completedAt()
	switch e.status {
	case client.StatusDone:
		job.CompletedAt = pointerTo(formatTimestamp(completedAt))
		job.Result = liveResult(params, audio, e.id, sd.recordingFrom)
	case client.StatusError:
		job.CompletedAt = pointerTo(formatTimestamp(completedAt))
		job.ErrorCode = pointerTo([]int64{400, 408, 422, 500, 503}[rng.IntN(5)])
	}
	return job
}

func randomDuration(rng *rand.Rand, below time.Duration) time.Duration {
	return time.Duration(rng.Int64N(int64(below)))
}

func randomMessageFlags(flag func(int) *bool) *client.LiveMessagesConfig {
	return &client.LiveMessagesConfig{
		ReceivePartialTranscripts:       flag(50),
		ReceiveFinalTranscripts:         flag(90),
		ReceiveSpeechEvents:             flag(40),
		ReceivePreProcessingEvents:      flag(30),
		ReceiveRealtimeProcessingEvents: flag(50),
		ReceivePostProcessingEvents:     flag(50),
		ReceiveAcknowledgments:          flag(30),
		ReceiveErrors:                   flag(90),
		ReceiveLifecycleEvents:          flag(60),
	}
}

// liveResult builds session id's result with the pre-recorded generator,
// from the pre-recorded request equivalent to the session's parameters,
// plus the messages its messages_config chose (the official client: "Real-Time
// messages sent by the server during the live transcription"): lifecycle
// events (it started recording at recordingFrom, a queued session after its
// creation, and its end_session is its completed_at) and final transcripts,
// one per utterance, sent as it ended. The other categories are not
// emulated.
func liveResult(p *client.LiveRequestParams, audio Audio, id string, recordingFrom time.Time) *client.Result {
	rt, post := p.RealtimeProcessing, p.PostProcessing
	req := (&client.InitTranscriptionRequest{
		AudioURL:               "live-stream",
		Model:                  p.Model,
		LanguageConfig:         p.LanguageConfig,
		CustomVocabulary:       rt.CustomVocabulary,
		CustomVocabularyConfig: rt.CustomVocabularyConfig,
		CustomSpelling:         rt.CustomSpelling,
		CustomSpellingConfig:   rt.CustomSpellingConfig,
		Translation:            rt.Translation,
		TranslationConfig:      rt.TranslationConfig,
		NamedEntityRecognition: rt.NamedEntityRecognition,
		SentimentAnalysis:      rt.SentimentAnalysis,
		Summarization:          post.Summarization,
		SummarizationConfig:    post.SummarizationConfig,
	}).WithDefaults()
	result := generateResult(req, audio, id)
	if result == nil {
		return nil
	}
	end := recordingFrom.Add(secondsToDuration(audio.Duration))
	message := func(kind string, at time.Time, data string) string {
		return fmt.Sprintf(`{"type":%q,"session_id":%q,"created_at":%q%s}`, kind, id, formatTimestamp(at), data)
	}
	chosen := func(flag *bool) bool { return p.MessagesConfig != nil && flag != nil && *flag }
	// The official client's LiveV2*Message types: of the lifecycle events,
	// only end_recording carries data, the recording's duration.
	lifecycle := chosen(p.MessagesConfig.ReceiveLifecycleEvents)
	if lifecycle {
		result.Messages = append(result.Messages, message("start_session", recordingFrom, ""), message("start_recording", recordingFrom, ""))
	}
	if chosen(p.MessagesConfig.ReceiveFinalTranscripts) && result.Transcription != nil {
		for i, u := range result.Transcription.Utterances {
			data, err := marshalJSON(liveTranscriptData{ID: fmt.Sprintf("%s-%d", id[:8], i), IsFinal: true, Utterance: u})
			if err != nil {
				panic("fakeserver: encoding a transcript message: " + err.Error())
			}
			result.Messages = append(result.Messages, message("transcript", recordingFrom.Add(secondsToDuration(u.End)), `,"data":`+string(data)))
		}
	}
	if lifecycle {
		result.Messages = append(result.Messages,
			message("end_recording", end, fmt.Sprintf(`,"data":{"recording_duration":%s}`, strconv.FormatFloat(audio.Duration, 'g', -1, 64))),
			message("end_session", end.Add(sessionEndGap), ""))
	}
	return result
}

// liveTranscriptData is a transcript message's data (the official client's
// LiveV2TranscriptMessageData).
type liveTranscriptData struct {
	ID        string           `json:"id"`
	IsFinal   bool             `json:"is_final"`
	Utterance client.Utterance `json:"utterance"`
}
