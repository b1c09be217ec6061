/** Audio for calls, shared by the phone and the sandbox page's customer end. */

/** Plays the other end's audio on the chosen speaker. */
export async function playRemote(audio: HTMLAudioElement, stream: MediaStream, output: string | null) {
  audio.srcObject = stream;
  audio.autoplay = true;
  if (output && 'setSinkId' in audio)
    await (audio as HTMLAudioElement & { setSinkId(id: string): Promise<void> })
      .setSinkId(output)
      .catch(() => {});
  await audio.play().catch(() => {});
}

/** The person's microphone (the chosen one, else the default), or a clear reason it cannot be had. */
export async function microphone(input: string | null): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia)
    throw new Error('This browser cannot use a microphone here (calls need a secure https page).');
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: input ? { deviceId: { exact: input } } : true,
      video: false,
    });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'NotAllowedError')
      throw new Error(
        'The browser is not allowed to use the microphone: allow it in the address bar, then try again.',
      );
    if (name === 'NotFoundError' || name === 'OverconstrainedError')
      throw new Error('No microphone was found: plug one in or choose another under Audio.');
    throw new Error('The microphone could not be started.');
  }
}
