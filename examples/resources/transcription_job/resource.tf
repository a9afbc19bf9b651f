# Minimal: transcribe a recording and wait for the result.
resource "transcription_job" "minimal" {
  audio_url = "https://media.example.com/standup.wav"
}

# Subtitles and speaker diarization.
resource "transcription_job" "interview" {
  audio_url = "https://media.example.com/interview.wav"

  language_config = {
    languages = ["en"]
  }

  subtitles = true
  subtitles_config = {
    formats                    = ["srt", "vtt"]
    maximum_characters_per_row = 42
    maximum_rows_per_caption   = 2
  }

  diarization = true
  diarization_config = {
    min_speakers = 2
    max_speakers = 4
  }
}

# Translation and a bullet-point summary.
resource "transcription_job" "keynote" {
  audio_url = "https://media.example.com/keynote.wav"

  translation = true
  translation_config = {
    target_languages = ["fr", "de"]
  }

  summarization = true
  summarization_config = {
    type = "bullet_points"
  }

  custom_metadata = {
    event = "keynote"
  }
}

output "interview_subtitles" {
  value = transcription_job.interview.result.transcription.subtitles["srt"]
}
