# Upload a local recording, then transcribe it. Editing the file re-uploads
# it and replaces the job at the next apply.
resource "transcription_upload" "meeting" {
  source = "${path.module}/recordings/meeting.wav"
}

resource "transcription_job" "meeting" {
  audio_url = transcription_upload.meeting.audio_url
}
