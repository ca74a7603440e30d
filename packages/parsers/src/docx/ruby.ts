import JSZip from 'jszip';

const RUBY = /<w:ruby>[\s\S]*?<w:rubyBase>([\s\S]*?)<\/w:rubyBase>[\s\S]*?<\/w:ruby>/g;

/**
 * mammoth drops <w:ruby> (phonetic guides over Japanese/Chinese text) together with the base text.
 * Keep the base runs in place and leave the guide out, so the words themselves are not lost.
 */
export async function unwrapRuby(bytes: Uint8Array): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  let changed = false;
  for (const name of Object.keys(zip.files)) {
    if (!/^word\/(document|footnotes|endnotes|header\d*|footer\d*)\.xml$/.test(name)) continue;
    const file = zip.file(name);
    const xml = file ? await file.async('string') : '';
    if (!xml.includes('<w:ruby>')) continue;
    zip.file(name, xml.replace(RUBY, '$1'));
    changed = true;
  }
  return changed ? zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }) : bytes;
}
