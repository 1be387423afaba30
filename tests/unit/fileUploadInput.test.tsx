// @vitest-environment jsdom
// The image/file input of the generic forms (docs/files.md): the file goes as the raw body of one XHR with
// the token and language headers, progress shows with the file's name and size, cancel aborts it, the
// uploaded file's id becomes the value; too large or a wrong type is said in the user's language.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, RecordContextProvider } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { FileInfo } from '../../resources/files';
import type { FieldDeclaration } from '../../resources/types';
import { FileValueField, ImageValueField } from '../../src/generic/FileFields';
import { FileUploadInput } from '../../src/generic/FileUploadInput';
import { callsTo, consoleHarness } from './consoleHarness';

/** The browser's XMLHttpRequest as far as the upload client uses it; the test answers it. */
class FakeRequest {
  static sent: FakeRequest[] = [];
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  aborted = false;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeRequest.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ loaded, total, lengthComputable: true }));
  }
  answer(envelope: object) {
    this.status = 200;
    this.responseText = JSON.stringify(envelope);
    act(() => this.onload?.());
  }
}

const PHOTO: FieldDeclaration = { type: 'image' };
const STORED: FileInfo = { id: 41, name: 'bin.png', mimeType: 'image/png', size: 2048, sha256: 'ab'.repeat(32), hasThumbnail: false, createdTime: '2026-11-27T10:00:00Z' };

const Value = () => <output data-testid="value">{JSON.stringify(useWatch({ name: 'photo' }) ?? null)}</output>;

const renderInput = (locale: 'en' | 'zh' = 'en', photo: number | null = null, onSubmit?: (values: Record<string, unknown>) => void) => {
  const h = consoleHarness({ handlers: { 'GET /file/info': (call: { query?: Record<string, string> }) => (call.query?.ids === '41' ? [STORED] : []) } });
  h.session.setLang(locale);
  h.renderIn(
    <Form record={{ id: 1, photo }} onSubmit={onSubmit}>
      <button type="submit">Submit</button>
      {/* an i18n key, as the generic forms pass it (a label found in both catalogues) */}
      <FileUploadInput source="photo" label="resources.user.fields.email" field={PHOTO} resource="asset" required={false} />
      <Value />
    </Form>,
  );
  return h;
};

const choose = (file: File) => fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files: [file] } });
const png = (name: string, size: number) => new File([new Uint8Array(size)], name, { type: 'image/png' });

beforeEach(() => {
  FakeRequest.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('file upload input', () => {
  it('sends the file as the body with the token, shows its name, size and progress, and stores the id answered', async () => {
    renderInput();
    expect(screen.getByText('E-mail')).toBeTruthy(); // the label in the user's language, never its key
    expect(screen.getByText('PNG, JPEG, WEBP, at most 5.0 MB')).toBeTruthy();
    expect(document.querySelector('input[type="file"]')!.getAttribute('accept')).toBe('image/png,image/jpeg,image/webp');
    const file = png('bin.png', 2048);
    choose(file);
    const [request] = FakeRequest.sent;
    expect([request.method, request.url, request.body]).toEqual(['POST', '/test-api/file?resource=asset&field=photo&name=bin.png', file]);
    expect(request.headers).toMatchObject({ 'rvm-token': 'token-1', lang: 'en', 'Content-Type': 'application/octet-stream' });
    expect(await screen.findByText('Uploading bin.png (2.0 KB)')).toBeTruthy();
    request.progress(1024, 2048);
    expect(screen.getByText('50% sent')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    request.answer({ resCode: '00000', resMsg: 'Success', resData: STORED });
    await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('41'));
    expect(await screen.findByText('bin.png (2.0 KB)')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it("refuses to submit the form while the file is still on its way, saying so in the user's language", async () => {
    const submitted = vi.fn();
    renderInput('zh', null, submitted);
    choose(png('bin.png', 2048));
    await screen.findByRole('progressbar');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('bin.png 仍在上传：请等待上传完成，或取消上传')).toBeTruthy();
    expect(submitted).not.toHaveBeenCalled();
    FakeRequest.sent[0].answer({ resCode: '00000', resMsg: 'Success', resData: STORED });
    await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('41'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(submitted).toHaveBeenCalledTimes(1));
    expect(submitted.mock.calls[0][0]).toMatchObject({ photo: 41 });
  });

  it('shows the current file of an edited record by its metadata', async () => {
    const h = renderInput('en', 41);
    expect(await screen.findByText('bin.png (2.0 KB)')).toBeTruthy();
    expect(callsTo(h.calls, 'GET', '/file/info')[0].query).toEqual({ ids: '41' });
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.getByTestId('value').textContent).toBe('null');
  });

  it('cancels: the request is aborted, nothing is said and the value stays', async () => {
    renderInput();
    choose(png('bin.png', 2048));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel upload' }));
    expect(FakeRequest.sent[0].aborted).toBe(true);
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(screen.getByTestId('value').textContent).toBe('null');
    expect(screen.getByText('PNG, JPEG, WEBP, at most 5.0 MB')).toBeTruthy();
  });

  it("refuses a file over the limit before sending it, in the user's language", async () => {
    renderInput('zh');
    choose(png('big.png', 5 * 1024 * 1024 + 1));
    expect(await screen.findByText('big.png 太大：不能超过 5.0 MB')).toBeTruthy();
    expect(FakeRequest.sent).toEqual([]);
  });

  it('says what the server found when it refuses the type by the bytes (9601), and the limit it answered (9600)', async () => {
    renderInput();
    choose(png('fake.png', 10));
    FakeRequest.sent[0].answer({ resCode: '9601', resMsg: 'This type of file is not accepted here', resData: { mimeType: 'text/plain', accept: ['image/png'] } });
    expect(await screen.findByText('This file is text/plain, which is not accepted here: choose PNG, JPEG, WEBP')).toBeTruthy();
    choose(png('other.png', 10));
    FakeRequest.sent[1].answer({ resCode: '9600', resMsg: 'The file is too large', resData: { maxBytes: 1024 } });
    expect(await screen.findByText('other.png is too large: at most 1.0 KB')).toBeTruthy();
    expect(screen.getByTestId('value').textContent).toBe('null');
  });

  it('refuses a type the browser already knows is not accepted, in Chinese', async () => {
    renderInput('zh');
    choose(new File(['%PDF'], 'manual.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('此处不接受 manual.pdf：请选择 PNG、JPEG、WEBP 文件')).toBeTruthy();
    expect(FakeRequest.sent).toEqual([]);
  });

  it('shows an image as its thumbnail and a file as its name and size; both download the original (one metadata call for the page)', async () => {
    const MANUAL: FileInfo = { ...STORED, id: 42, name: 'manual.pdf', mimeType: 'application/pdf', size: 3 * 1024 * 1024, hasThumbnail: false };
    const h = consoleHarness({ handlers: { 'GET /file/info': () => [{ ...STORED, hasThumbnail: true }, MANUAL] } });
    const downloads: string[] = [];
    h.download.download = async (_method, path) => {
      downloads.push(path);
      return { blob: new Blob(['x']), filename: 'x' };
    };
    // jsdom has no object URLs
    vi.stubGlobal(
      'URL',
      class extends URL {
        static createObjectURL = () => 'blob:thumbnail';
        static revokeObjectURL = () => undefined;
      },
    );
    h.renderIn(
      <RecordContextProvider value={{ id: 1, photo: 41, manual: 42 }}>
        <ImageValueField source="photo" />
        <FileValueField source="manual" />
      </RecordContextProvider>,
    );
    expect(((await screen.findByRole('img', { name: 'Picture bin.png' })) as HTMLImageElement).src).toBe('blob:thumbnail');
    const link = await screen.findByRole('button', { name: 'manual.pdf (3.0 MB)' });
    expect(link.getAttribute('title')).toBe('Download manual.pdf');
    fireEvent.click(link);
    await waitFor(() => expect(downloads).toEqual(['/file/41/thumbnail', '/file/42']));
    expect(callsTo(h.calls, 'GET', '/file/info').map((call) => call.query)).toEqual([{ ids: '41,42' }]);
  });
});
