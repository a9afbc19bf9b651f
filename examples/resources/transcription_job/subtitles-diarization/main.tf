terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# Subtitles in two formats for a two-person interview, with each utterance
# attributed to its speaker.
resource "transcription_job" "interview" {
  audio_url = "https://media.example.com/podcast/episode-42.wav"

  language_config = {
    languages = ["en"]
  }

  subtitles = true
  subtitles_config = {
    formats                    = ["srt", "vtt"]
    maximum_characters_per_row = 42
    maximum_rows_per_caption   = 2
    maximum_duration           = 6
  }

  diarization = true
  diarization_config = {
    number_of_speakers = 2
  }

  # Subtitles and utterances are transcript-sized: kept in state on request.
  include_transcript = true
}

# Publish the subtitles next to the episode, for example in a bucket.
output "episode_srt" {
  value = transcription_job.interview.result.transcription.subtitles["srt"]
}

output "episode_vtt" {
  value = transcription_job.interview.result.transcription.subtitles["vtt"]
}

# Who said what: "Speaker 0: ..." lines. Utterances are JSON text, one
# string in state however long the recording: jsondecode reads them.
output "dialogue" {
  value = join("\n", [
    for u in jsondecode(transcription_job.interview.result.transcription.utterances) :
    format("Speaker %d: %s", u.speaker, u.text)
  ])
}
