/**
 * The words a question uses to ask for a figure, per language, as data: which operation (a change, a
 * percentage change, an average, a sum, a ratio, a share of a whole) and how an answer line says
 * it. Patterns are matched against the question in NFKC and lower case. A new language or wording
 * is an entry here, not code.
 */
export interface FigureWords {
  lang: 'en' | 'ja' | 'zh-Hans' | 'zh-Hant';
  /** "percentage change", 「増減率」, 「同比增长」. */
  pctChange: RegExp;
  /** "change", "difference", "increase / (decrease)", 「増減」, 「变动」. */
  change: RegExp;
  average: RegExp;
  /**
   * Amounts due within a span of years ("due within 5 years"): group `n` the years, `after` set when it
   * asks after them ("due after 5 years"). English only: a Japanese or Chinese question's 「1年以内」 names
   * an aging row of the table (「账龄1年以内的预付款项」), which the table reader reads.
   */
  maturity?: RegExp;
  /** A figure asked over each quarter of a year ("the average quarterly low price", 「各四半期」, 「每季度」). */
  quarterly: RegExp;
  /** A sum asked in so many words ("combined", 「合計で」): "total" alone is most often a line item. */
  sum: RegExp;
  /** "total" asked of two periods or more ("the total number of shares as of 2019 and 2018"). */
  totalOf: RegExp;
  /** "ratio of A to B", 「Bに対するAの比率」: groups `a` and `b`. */
  ratio: RegExp[];
  /** "percentage of A in B", "A as a percentage of B", 「Bに占めるAの割合」: groups `a` (the part) and `b` (the whole). */
  share: RegExp[];
  /** The share is asked as a fraction ("proportion"), not in percent. */
  fraction: RegExp;
  /** The question asks a percentage of something ("the average percentage of net revenues"): a row of percentages is the one asked. */
  percentAsked: RegExp;
  /** A question about a measure's direction over the years ("improving", "trend", 「改善」, 「趋势」). */
  trend: RegExp;
  /** … that asks it judged ("improving", 「改善」): the answer says improving or not. */
  judges: RegExp;
  /** A column that states a row's change ("% Change", "Variance", 「増減率」, 「同比增减」). */
  changeColumn: RegExp;
  /** A line item named as an outflow ("Cost of sales", "Net cash used in financing activities", 「販売費」): its brackets are presentation. */
  outflow: RegExp;
  /** What a question says around the line item it names (question form, operation, periods left bare): removed to name the item. */
  form: RegExp[];
  /** How an answer line names each operation; {item}, {a}, {b}, {from}, {to}, {periods} are filled in. */
  say: Record<
    | 'value'
    | 'change'
    | 'pctChange'
    | 'average'
    | 'sum'
    | 'ratio'
    | 'share'
    | 'missing'
    | 'ambiguous'
    | 'onePeriod'
    | 'currencies'
    | 'unit'
    | 'stated'
    | 'points'
    | 'up'
    | 'down'
    | 'flat'
    | 'better'
    | 'worse'
    | 'trend'
    | 'joiner',
    string
  >;
}

const EN_FIGURES: FigureWords = {
  lang: 'en',
  pctChange:
    /\b(?:percent(?:age)?|%)\s*(?:change|increase|decrease|growth|rise|decline|drop|movement)|\bgrowth rate\b|\brate of (?:change|growth|increase|decrease)\b|\b(?:increase|decrease|grow|grew|change|rise|rose|decline|drop)\w*\s+by\s+what\s+(?:percent|%)|\b(?:yoy|year[- ]over[- ]year)\s+(?:growth|change)\b|\bpercent(?:age)?\s+(?:increase|decrease)\s*\/\s*\(?(?:increase|decrease)\)?/iu,
  // "net increase (decrease) in cash": a line item's name, not an operation
  change:
    /(?<!\bnet\s)\b(?:change[ds]?|difference|increase[ds]?|decrease[ds]?|variance|movement|grew|growth|rise|rose|declined?|dropped|fell)\b|(?<!\bnet\s)\bincrease\s*\/\s*\(?decrease\)?/iu,
  // "weighted average shares", "net average price": a line item's name, not an operation
  average: /(?<!\bweighted[- ]|\bnet )\b(?:average|mean)\b(?![- ](?:life|price|exchange|selling\s+price|remaining))/iu,
  quarterly: /\b(?:quarterly|each quarter|per quarter|every quarter|all (?:four|4) quarters)\b/iu,
  maturity:
    /(?:\b(?:that\s+(?:are|is|were|was)\s+)?(?:due|payable|maturing|owed)\s+)?\b(?:(?:within|in\s+the\s+next|in\s+the\s+first|in\s+less\s+than)\s+(?<n>\d{1,2}|one|two|three|four|five|ten)|(?<after>after|beyond|in\s+more\s+than)\s+(?<m>\d{1,2}|one|two|three|four|five|ten))\s+years?\b/iu,
  sum: /\b(?:sum|combined|altogether|in total|aggregate amount)\b/iu,
  totalOf: /\btotal\b/iu,
  ratio: [/\bratio of (?<a>.+?) (?:to|against|over|versus|vs\.?) (?<b>.+)/iu, /\b(?<a>.+?) to (?<b>.+?) ratio\b/iu],
  share: [
    /\b(?:percentage|proportion|share|portion|fraction|%)\s+(?:(?:constitution|composition|contribution)\s+)?of\s+(?<a>.+?)\s+(?:in|of|to|within|from|over|among|amongst)\s+(?<b>(?:the\s+)?(?:total|overall|net|gross|all)\b.+)/iu,
    /\b(?<a>.+?)\s+as\s+(?:a|the)\s+(?:percentage|proportion|share|fraction|%)\s+of\s+(?<b>.+)/iu,
    /\bwhat\s+(?:percentage|proportion|share|portion|fraction|%)\s+of\s+(?<b>.+?)\s+(?:is|was|were|are|came|comes)\s+(?:from\s+|generated\s+(?:from|by)\s+|attributable\s+to\s+|related\s+to\s+|made\s+up\s+of\s+)?(?<a>.+)/iu,
  ],
  fraction: /\b(?:proportion|fraction|ratio|portion)\b/iu,
  outflow: /\b(?:costs?|expenses?|expenditures?|used\s+in|purchases?|paid|payments\s+(?:for|of|to))\b/iu,
  changeColumn: /\b(?:change|changes|variance|variation|increase|decrease|growth|vs\.?|versus)\b|%\s*(?:chg|change)/iu,
  trend: /\b(?:improv\w*|deteriorat\w*|worsen\w*|trend\w*|declining|rising|growing)\b/iu,
  percentAsked: /\bpercent(?:age)?s?\b|%/iu,
  judges: /\b(?:improv\w*|deteriorat\w*|worsen\w*)\b/iu,
  form: [
    /^\s*(?:in\s+\S*\s*,\s*)?(?:what|how much|how many|by how much|which)\b(?:\s+(?:is|was|were|are|did|does|has|had|would be))?\s*/iu,
    // not a word of a hyphenated name ("share-based payments")
    /\b(?:the\s+)?(?:company['’]?s\s+)?(?:percent(?:age)?\s+)?(?:change[ds]?|difference|increase[ds]?|decrease[ds]?|variance|movement|growth|average|mean|sum|ratio|proportion|share|percentage)(?![-\w])(?:\s*\/\s*\(?\s*(?:increase|decrease)\s*\)?)?(?:\s+(?:in|of|between|for))?\b/giu,
    /(?:\s+(?:from|to|between|and|in|for|of|at|as of|the|fiscal|years?|year end|respectively|both|across|over|during|value|amount))*[\s?.,]*$/iu,
    /^\s*(?:the\s+)/iu,
    /\b(?:the\s+)?(?:value|amount|figure|balance|total amount)\s+(?:of|for)\b/giu,
  ],
  say: {
    value: '{item}, {periods}',
    change: 'change in {item}, {from} to {to}',
    pctChange: 'percentage change in {item}, {from} to {to}',
    average: 'average of {item}, {periods}',
    sum: 'sum of {item}, {periods}',
    ratio: '{a} to {b}, {periods}',
    share: '{a} as a share of {b}, {periods}',
    missing: 'The documents do not show {item}{periods}, so this cannot be computed.',
    ambiguous: 'Several documents give {item}{periods}, with different figures: {files}. Name the document you mean.',
    onePeriod: '{item} is a figure of one period, and the question names several{periods}: ask it of one.',
    currencies: 'The figures for {item} are in different currencies ({detail}): they are not computed together.',
    unit: '{item} is stated in {detail}, and the question asks another currency: no rate is given to convert it.',
    stated: '{stated} — {what} {mark}; from its cells: {figure} = {expression} {marks}',
    points: '{n} percentage points',
    up: 'rising',
    down: 'falling',
    flat: 'unchanged',
    better: 'improving',
    worse: 'not improving',
    trend: '{direction}: {item} {series}',
    joiner: ' and ',
  },
};

const JA_FIGURES: FigureWords = {
  lang: 'ja',
  pctChange: /増減率|増加率|減少率|伸び率|成長率|変化率|前年比|前期比|前年同期比/iu,
  change: /増減|増加額|減少額|差額|変化|どれだけ(?:増|減)|どのくらい(?:増|減)|いくら(?:増|減)|差は/iu,
  average: /平均/iu,
  quarterly: /各四半期|四半期(?:ごと|毎|平均)/u,
  sum: /合算|合わせて|合計で|合計はいくら|総額/iu,
  totalOf: /合計/iu,
  ratio: [/(?<b>.+?)に対する(?<a>.+?)の(?:比率|割合|比)/iu],
  share: [/(?<b>.+?)に占める(?<a>.+?)の(?:割合|比率|構成比)/iu],
  fraction: /比率|倍/iu,
  outflow: /費|原価|支出|支払|取得による/u,
  changeColumn: /増減|前年比|前期比|伸び率|変動/u,
  trend: /改善|悪化|推移|傾向|上昇傾向|低下傾向/u,
  percentAsked: /率|割合|%|パーセント/u,
  judges: /改善|悪化/u,
  form: [
    /増減率|増加率|減少率|伸び率|成長率|変化率|前年比|前期比|増減|平均|合計|差額|[はのがにで]?\s*(?:いくら|どれだけ|どのくらい|何円)[^？?]*[？?]?$|[\sはのがにでを、]+$|[？?。]$/giu,
  ],
  say: {
    value: '{item}、{periods}',
    change: '{item}の増減、{from}→{to}',
    pctChange: '{item}の増減率、{from}→{to}',
    average: '{item}の平均、{periods}',
    sum: '{item}の合計、{periods}',
    ratio: '{b}に対する{a}の比率、{periods}',
    share: '{b}に占める{a}の割合、{periods}',
    missing: '資料に{item}{periods}が見当たらないため、計算できません。',
    ambiguous: '{item}{periods}は複数の資料（{files}）に異なる数値で載っています。どの資料かを指定してください。',
    onePeriod: '{item}は一期間の数値ですが、質問は複数の期間{periods}を挙げています。一つの期間を指定してください。',
    currencies: '{item}の数値は通貨が異なるため（{detail}）、まとめて計算できません。',
    unit: '{item}は{detail}建てで記載されています。質問の通貨に換算するレートがないため、換算できません。',
    stated: '{stated}（{what}）{mark}、セルから計算すると {figure} = {expression} {marks}',
    points: '{n}ポイント',
    up: '上昇',
    down: '低下',
    flat: '横ばい',
    better: '改善しています',
    worse: '改善していません',
    trend: '{direction}：{item} {series}',
    joiner: '・',
  },
};

const ZH_COMMON = {
  pctChange: /增长率|增長率|增幅|降幅|变动率|變動率|变化率|變化率|同比增长|同比增長|同比|环比|環比|增减比例|增減比例/iu,
  change: /变化|變化|变动|變動|差额|差額|增减|增減|增加了多少|减少了多少|減少了多少|相差/iu,
  average: /平均/iu,
  quarterly: /[每各]季度?|季度平均/u,
  sum: /总和|總和|合计是多少|合計是多少|加起来|加起來|总共|總共/iu,
  totalOf: /合计|合計|总计|總計/iu,
  ratio: [/(?<a>.+?)与(?<b>.+?)的比(?:率|例|值)?/iu, /(?<a>.+?)與(?<b>.+?)的比(?:率|例|值)?/iu],
  share: [/(?<a>.+?)[占佔](?<b>.+?)的(?:比例|比重|百分比|份额|份額)/iu],
  fraction: /比率|比值|倍/iu,
  outflow: /费用|費用|成本|支出|支付|购建|購建/u,
  changeColumn: /增减|增減|变动|變動|变化|變化|同比|增长|增長/u,
  trend: /改善|恶化|惡化|趋势|趨勢|走势|走勢/u,
  percentAsked: /率|比例|百分比|%/u,
  judges: /改善|恶化|惡化/u,
  form: [
    /同比增长|同比增長|增长率|增長率|增幅|降幅|变动率|變動率|变化率|變化率|同比|环比|環比|变化|變化|变动|變動|差额|差額|平均值?|合计|合計|总和|總和|(?:是|为|為)?多少[^？?]*[？?]?$|[的是]?[？?。]$/giu,
  ],
};

const ZH_HANS_FIGURES: FigureWords = {
  lang: 'zh-Hans',
  ...ZH_COMMON,
  say: {
    value: '{item}，{periods}',
    change: '{item}的变动，{from}→{to}',
    pctChange: '{item}的变动率，{from}→{to}',
    average: '{item}的平均值，{periods}',
    sum: '{item}的合计，{periods}',
    ratio: '{a}与{b}之比，{periods}',
    share: '{a}占{b}的比例，{periods}',
    missing: '文件中未找到{item}{periods}，无法计算。',
    ambiguous: '多个文件（{files}）给出的{item}{periods}数值不同，请指明是哪一个文件。',
    onePeriod: '{item}是单一期间的数值，而问题列出了多个期间{periods}，请指定其中一个期间。',
    currencies: '{item}的数值币种不同（{detail}），无法合并计算。',
    unit: '{item}以{detail}列示，问题要求的是另一币种，没有汇率无法换算。',
    stated: '{stated}（{what}）{mark}，按单元格计算为 {figure} = {expression} {marks}',
    points: '{n}个百分点',
    up: '上升',
    down: '下降',
    flat: '持平',
    better: '有所改善',
    worse: '没有改善',
    trend: '{direction}：{item} {series}',
    joiner: '、',
  },
};

const ZH_HANT_FIGURES: FigureWords = {
  lang: 'zh-Hant',
  ...ZH_COMMON,
  say: {
    value: '{item}，{periods}',
    change: '{item}的變動，{from}→{to}',
    pctChange: '{item}的變動率，{from}→{to}',
    average: '{item}的平均值，{periods}',
    sum: '{item}的合計，{periods}',
    ratio: '{a}與{b}之比，{periods}',
    share: '{a}佔{b}的比例，{periods}',
    missing: '文件中未找到{item}{periods}，無法計算。',
    ambiguous: '多個文件（{files}）給出的{item}{periods}數值不同，請指明是哪一個文件。',
    onePeriod: '{item}是單一期間的數值，而問題列出了多個期間{periods}，請指定其中一個期間。',
    currencies: '{item}的數值幣種不同（{detail}），無法合併計算。',
    unit: '{item}以{detail}列示，問題要求的是另一幣種，沒有匯率無法換算。',
    stated: '{stated}（{what}）{mark}，按儲存格計算為 {figure} = {expression} {marks}',
    points: '{n}個百分點',
    up: '上升',
    down: '下降',
    flat: '持平',
    better: '有所改善',
    worse: '沒有改善',
    trend: '{direction}：{item} {series}',
    joiner: '、',
  },
};

export const FIGURE_WORDS: Record<FigureWords['lang'], FigureWords> = {
  en: EN_FIGURES,
  ja: JA_FIGURES,
  'zh-Hans': ZH_HANS_FIGURES,
  'zh-Hant': ZH_HANT_FIGURES,
};
