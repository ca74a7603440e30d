import { stemmer } from 'stemmer';

/** English stop words: function words that carry no topic. Kept short on purpose. */
const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most my ' +
    'myself no nor not now of off on once only or other our ours ourselves out over own same she should so ' +
    'some such than that the their theirs them themselves then there these they this those through to too ' +
    'under until up very was we were what when where which while who whom why will with would you your ' +
    'yours yourself yourselves s t d ll m re ve also did does'
  ).split(' '),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Distinct words whose stems are remembered; past it the memory starts over (words follow Zipf's law, so the common ones come back at once). */
const STEM_CACHE = 50_000;
const stems = new Map<string, string>();

/** Porter stem of a lower-cased word; digits and mixed tokens are kept as they are. */
export function stemWord(word: string): string {
  if (word.length < 3 || /\d/.test(word)) return word;
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stems.size >= STEM_CACHE) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}
