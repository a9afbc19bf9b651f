// The service's official JavaScript client, driven against the fake server
// that compat_test.go starts: every pre-recorded and live job-management
// method, as a user's pipeline would call them, and startSession and
// connectSession, which the fake server refuses, saying why.
//
// Environment: BASE_URL (the fake server), API_KEY, WORK_DIR (a scratch
// folder). The client is given the key through its own httpHeaders option
// under the name the spec uses (x-service-key); apiKey stays unset, so no
// other key header is sent.
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'

import { GladiaClient } from '@gladiaio/sdk'

const { BASE_URL, API_KEY, WORK_DIR } = process.env
assert.ok(BASE_URL && API_KEY && WORK_DIR, 'BASE_URL, API_KEY and WORK_DIR must be set')

const gladia = new GladiaClient({
  apiUrl: BASE_URL,
  httpHeaders: { 'x-service-key': API_KEY },
  httpRetry: { maxAttempts: 1 },
})
const preRecorded = gladia.preRecorded()
const live = gladia.live()
const fast = { interval: 50, timeout: 20_000 }

// wav builds a 16-bit PCM WAV of silence.
function wav(seconds, channels, rate) {
  const data = Math.round(seconds * rate) * channels * 2
  const b = Buffer.alloc(44 + data)
  b.write('RIFF', 0)
  b.writeUInt32LE(36 + data, 4)
  b.write('WAVEfmt ', 8)
  b.writeUInt32LE(16, 16)
  b.writeUInt16LE(1, 20)
  b.writeUInt16LE(channels, 22)
  b.writeUInt32LE(rate, 24)
  b.writeUInt32LE(rate * channels * 2, 28)
  b.writeUInt16LE(channels * 2, 32)
  b.writeUInt16LE(16, 34)
  b.write('data', 36)
  b.writeUInt32LE(data, 40)
  return b
}

// wavSeconds reads the length of a WAV file from its header.
function wavSeconds(buf) {
  const v = new DataView(buf)
  assert.equal(String.fromCharCode(...new Uint8Array(buf, 0, 4)), 'RIFF')
  const channels = v.getUint16(22, true)
  const rate = v.getUint32(24, true)
  const bits = v.getUint16(34, true)
  return { seconds: v.getUint32(40, true) / (rate * channels * (bits / 8)), channels }
}

// rejectsWithStatus expects an HttpError of the given status.
async function rejectsWithStatus(promise, status) {
  await assert.rejects(promise, (err) => {
    assert.equal(err.name, 'HttpError', String(err))
    assert.equal(err.status, status, String(err))
    assert.equal(typeof err.responseBody?.message, 'string')
    assert.equal(typeof err.responseBody?.request_id, 'string')
    return true
  })
}

const recording = join(WORK_DIR, 'standup.wav')
const recordingBytes = wav(2.5, 2, 8000)
writeFileSync(recording, recordingBytes)

describe('pre-recorded', () => {
  it('uploadFile, create, get, poll, getFile, delete', async () => {
    const up = await preRecorded.uploadFile(recording)
    assert.equal(up.audio_metadata.filename, 'standup.wav')
    assert.equal(up.audio_metadata.size, recordingBytes.length)
    assert.equal(up.audio_metadata.audio_duration, 2.5)
    assert.equal(up.audio_metadata.number_of_channels, 2)

    const created = await preRecorded.create({
      audio_url: up.audio_url,
      diarization: true,
      subtitles: true,
      subtitles_config: { formats: ['srt', 'vtt'] },
      audio_to_llm: true,
      audio_to_llm_config: { prompts: [['List the action items.'], 'Who spoke?'] },
      custom_metadata: { pipeline: 'compat', run: 1 },
    })
    assert.match(created.id, /^[0-9a-f-]{36}$/)
    assert.ok(created.result_url.endsWith(`/v2/transcription/${created.id}`))

    const first = await preRecorded.get(created.id)
    assert.equal(first.id, created.id)
    assert.equal(first.kind, 'pre-recorded')
    assert.ok(['queued', 'processing', 'done'].includes(first.status))

    const done = await preRecorded.poll(created.id, fast)
    assert.equal(done.status, 'done')
    assert.equal(done.file.audio_duration, 2.5)
    assert.deepEqual(done.custom_metadata, { pipeline: 'compat', run: 1 })
    assert.deepEqual(done.request_params.audio_to_llm_config.prompts, ['List the action items.', 'Who spoke?'])
    const r = done.result
    assert.equal(r.metadata.audio_duration, 2.5)
    assert.equal(typeof r.transcription.full_transcript, 'string')
    assert.deepEqual(r.transcription.subtitles.map((s) => s.format), ['srt', 'vtt'])
    // AudioToLlmList: one AudioToLlm add-on result per prompt.
    assert.equal(r.audio_to_llm.success, true)
    assert.equal(r.audio_to_llm.results.length, 2)
    for (const answer of r.audio_to_llm.results) {
      assert.equal(answer.success, true)
      assert.equal(typeof answer.results.prompt, 'string')
      assert.equal(typeof answer.results.response, 'string')
    }

    const file = await preRecorded.getFile(created.id)
    assert.deepEqual(Buffer.from(file), recordingBytes)

    assert.equal(await preRecorded.delete(created.id), true)
    await rejectsWithStatus(preRecorded.get(created.id), 404)
    await rejectsWithStatus(preRecorded.delete(created.id), 404)
  })

  it('createUntyped, createAndPoll, createAndPollUntyped', async () => {
    const untyped = await preRecorded.createUntyped({ audio_url: 'https://example.com/raw.wav?duration=4' })
    assert.equal((await preRecorded.poll(untyped.id, fast)).file.audio_duration, 4)

    const polled = await preRecorded.createAndPoll(
      { audio_url: 'https://example.com/call.wav?duration=6&channels=2', sentences: true },
      fast,
    )
    assert.equal(polled.status, 'done')
    assert.equal(polled.result.metadata.number_of_distinct_channels, 2)
    // TranscriptionMetadata: billing_time = audio_duration * number_of_distinct_channels.
    assert.equal(polled.result.metadata.billing_time, 12)
    assert.equal(polled.result.sentences.success, true)

    const polledUntyped = await preRecorded.createAndPollUntyped(
      { audio_url: 'https://example.com/untyped.wav?duration=3', summarization: true },
      fast,
    )
    assert.equal(typeof polledUntyped.result.summarization.results, 'string')
  })

  it('transcribe and transcribeUntyped, from a file and from a URL', async () => {
    const fromFile = await preRecorded.transcribe(recording, { sentiment_analysis: true }, fast)
    assert.equal(fromFile.file.filename, 'standup.wav')
    assert.equal(typeof fromFile.result.sentiment_analysis.results, 'string')

    const fromURL = await preRecorded.transcribe('https://example.com/talk.mp3?duration=8', undefined, fast)
    assert.equal(fromURL.file.audio_duration, 8)

    const untyped = await preRecorded.transcribeUntyped(recording, { named_entity_recognition: true }, fast)
    assert.ok(Array.isArray(untyped.result.named_entity_recognition.results))
  })

  it('getFile of external audio is a WAV of its duration', async () => {
    const job = await preRecorded.createAndPoll({ audio_url: 'https://example.com/long.wav?duration=12.5&channels=2' }, fast)
    assert.deepEqual(wavSeconds(await preRecorded.getFile(job.id)), { seconds: 12.5, channels: 2 })
  })

  it('a failed job makes poll throw with its error code', async () => {
    const failed = await preRecorded.create({ audio_url: 'https://example.com/fail-415.wav' })
    await assert.rejects(preRecorded.poll(failed.id, fast), /failed with error code: 415/)
    await rejectsWithStatus(preRecorded.getFile(failed.id), 404)
  })

  it('list: filters, pages, next links', async () => {
    for (const team of ['red', 'red', 'red', 'blue']) {
      await preRecorded.createAndPoll({ audio_url: `https://example.com/${team}.wav`, custom_metadata: { team } }, fast)
    }
    const page = await preRecorded.list({ custom_metadata: { team: 'red' }, status: ['done'], limit: 2 })
    assert.equal(page.items.length, 2)
    for (const item of page.items) {
      assert.equal(item.custom_metadata.team, 'red')
      assert.equal(item.status, 'done')
    }
    assert.ok(page.next)
    const next = await preRecorded.list({ url: page.next })
    assert.equal(next.items.length, 1)
    assert.equal(next.items[0].custom_metadata.team, 'red')
    assert.equal(next.next, null)
    assert.ok(new Date(page.items[0].created_at) >= new Date(page.items[1].created_at), 'newest first')

    const today = new Date().toISOString().slice(0, 10)
    const dated = await preRecorded.list({ date: today, limit: 100 })
    assert.ok(dated.items.length >= 4)
    const before = await preRecorded.list({ before_date: '2000-01-01T00:00:00Z' })
    assert.deepEqual(before.items, [])
    const after = await preRecorded.list({ after_date: '2000-01-01T00:00:00Z', status: ['error'] })
    assert.ok(after.items.every((j) => j.status === 'error'))
  })

  it('errors carry the service error body', async () => {
    await rejectsWithStatus(preRecorded.create({ audio_url: 'https://example.com/a.wav', model: 'model-3' }), 422)
    await rejectsWithStatus(preRecorded.createUntyped({ audio_url: 'https://example.com/a.wav', subtitles: 'yes' }), 400)
    await rejectsWithStatus(preRecorded.get('00000000-0000-0000-0000-000000000000'), 404)
    const stranger = new GladiaClient({ apiUrl: BASE_URL, httpHeaders: { 'x-service-key': 'wrong' } }).preRecorded()
    await rejectsWithStatus(stranger.list(), 401)
  })
})

describe('live', () => {
  it('list with every filter, and its next links', async () => {
    const all = await live.list({ limit: 100 })
    assert.ok(all.items.length > 0)
    const first = await live.list({ limit: 5 })
    assert.equal(first.items.length, 5)
    const second = await live.list({ url: first.next })
    assert.notEqual(second.items[0].id, first.items[0].id)
    const done = await live.list({ status: ['done', 'error'], custom_metadata: { env: 'prod' }, limit: 100 })
    for (const j of done.items) {
      assert.ok(['done', 'error'].includes(j.status))
      assert.equal(j.custom_metadata.env, 'prod')
      assert.equal(j.kind, 'live')
    }
    const day = all.items[0].created_at.slice(0, 10)
    const dated = await live.list({ date: day, limit: 100 })
    assert.ok(dated.items.every((j) => j.created_at.startsWith(day)))
    const ranged = await live.list({ after_date: all.items.at(-1).created_at, before_date: all.items[0].created_at, limit: 100 })
    assert.ok(ranged.items.length > 0 && ranged.items.length <= all.items.length - 2)
    assert.ok(ranged.items.every((j) => j.created_at > all.items.at(-1).created_at && j.created_at < all.items[0].created_at))
  })

  it('get, getFile, delete', async () => {
    const { items } = await live.list({ status: ['done'], limit: 1 })
    const job = await live.get(items[0].id)
    assert.deepEqual(job, items[0])
    assert.equal(typeof job.result.transcription.full_transcript, 'string')
    assert.ok(Array.isArray(job.result.messages))

    const audio = wavSeconds(await live.getFile(job.id))
    assert.equal(audio.seconds, job.file.audio_duration)
    assert.equal(audio.channels, job.file.number_of_channels)

    assert.equal(await live.delete(job.id), true)
    await rejectsWithStatus(live.get(job.id), 404)
    await rejectsWithStatus(live.getFile(job.id), 404)

    const running = await live.list({ status: ['processing', 'queued'], limit: 1 })
    assert.equal(running.items.length, 1)
    await rejectsWithStatus(live.delete(running.items[0].id), 403)
  })

  it('startSession is refused, saying live sessions are not emulated', async () => {
    const session = live.startSession({ encoding: 'wav/pcm', sample_rate: 16000, bit_depth: 16, channels: 1 })
    const emitted = new Promise((resolve) => session.once('error', resolve))
    await rejectsWithStatus(session.getSessionId(), 405)
    const err = await emitted
    assert.match(err.responseBody.message, /starting a live session is not emulated/)
    assert.equal(session.status, 'ended')
  })

  // Node 20 has WebSocket only with --experimental-websocket, which
  // compat_test.go passes when this Node takes it.
  it('connectSession ends at once, saying live sessions are not emulated', { skip: typeof WebSocket === 'undefined' && 'this Node has no WebSocket' }, async () => {
    const { items } = await live.list({ limit: 1 })
    const url = BASE_URL.replace(/^http/, 'ws') + '/v2/live/' + items[0].id + '?token=session-token'
    const session = live.connectSession({ id: items[0].id, url })
    const ended = await new Promise((resolve) => session.once('ended', resolve))
    assert.equal(ended.code, 4405)
    assert.match(ended.reason, /live sessions are not emulated/)
  })
})
