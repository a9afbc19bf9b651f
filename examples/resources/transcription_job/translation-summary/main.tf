terraform {
  required_providers {
    transcription = {
      source = "transcription-service/transcription"
    }
  }
}

# A keynote transcribed, translated into French and German, and summarized
# as bullet points for the event's newsletter.
resource "transcription_job" "keynote" {
  audio_url = "https://media.example.com/events/keynote.mp4"

  translation = true
  translation_config = {
    target_languages = ["fr", "de"]
    context          = "Product keynote of a cloud infrastructure company"
  }

  summarization = true
  summarization_config = {
    type = "bullet_points"
  }

  custom_metadata = {
    event = "summit-2024"
  }

  # The summary is always in state; the translations, like the transcript,
  # only on request.
  include_transcript = true
}

output "keynote_summary" {
  value = transcription_job.keynote.result.summarization.results
}

# One transcript per target language: { fr = "...", de = "..." }. The
# translations are JSON text (each with its utterances): jsondecode reads them.
output "keynote_translations" {
  value = {
    for t in jsondecode(transcription_job.keynote.result.translation.results) :
    t.language => t.full_transcript
  }
}
