/**
 * Note on Japanese 固定資産 (non-current assets): it folds to the Chinese 固定资产 (property, plant
 * and equipment), so only its unambiguous forms (固定資産合計, 非流動資産) are listed.
 *
 * Standard financial-statement line items (US GAAP / IFRS; Japanese 有価証券報告書 / 決算短信;
 * Chinese 年度报告 and Taiwanese 財務報告) and the names people give them, from accounting
 * vocabulary. One group = one line item or measure; a name belongs to one group only (a test
 * checks it). Chinese names are written once in Simplified unless the Traditional (Taiwan)
 * usage is another word (營業利益, 本期淨利, 每股盈餘): matching folds Traditional to Simplified.
 * Reviewed as data: add a name to the group it means, never a question's wording. (Over 400
 * lines only because the formatter gives each group's lists their own lines.)
 */
export interface FinanceTermGroup {
  id: string;
  en: readonly string[];
  ja: readonly string[];
  zh: readonly string[];
  /**
   * A measure computed from line items: the groups its textbook formula reads (operating margin =
   * operating income ÷ revenue). A report that never names the measure holds it in these.
   */
  of?: readonly string[];
}

export const FINANCE_TERM_GROUPS: readonly FinanceTermGroup[] = [
  // Income statement
  {
    id: 'revenue',
    en: ['revenue', 'total revenues', 'net revenue', 'net sales', 'total net sales', 'sales', 'turnover', 'top line'],
    ja: ['売上高', '売上収益', '営業収益', '売上高合計', '経常収益'],
    zh: ['营业收入', '营业总收入', '营收', '营业额'],
  },
  {
    id: 'cost-of-revenue',
    en: ['cost of revenue', 'cost of sales', 'cost of goods sold', 'cogs', 'cost of products sold'],
    ja: ['売上原価'],
    zh: ['营业成本', '销售成本'],
  },
  {
    id: 'gross-profit',
    en: ['gross profit', 'gross income'],
    ja: ['売上総利益', '粗利益', '粗利'],
    zh: ['毛利', '毛利润', '营业毛利'],
  },
  {
    id: 'gross-margin',
    en: ['gross margin', 'gross profit margin', 'gross margin percentage'],
    ja: ['売上総利益率', '粗利率'],
    zh: ['毛利率'],
    of: ['gross-profit', 'revenue'],
  },
  {
    id: 'operating-expenses',
    en: ['operating expenses', 'total operating expenses', 'opex', 'total costs and expenses'],
    ja: ['営業費用'],
    zh: ['营业费用', '营业总成本'],
  },
  {
    id: 'sga',
    en: ['selling, general and administrative expenses', 'sg&a', 'selling general and administrative'],
    ja: ['販売費及び一般管理費', '販管費'],
    zh: ['销售费用', '管理费用', '销售及管理费用', '推销费用'],
  },
  {
    id: 'sales-and-marketing',
    en: ['sales and marketing', 'selling and marketing', 'sales and marketing expenses', 'selling and marketing expenses'],
    ja: ['販売費'],
    zh: ['销售及市场费用', '市场推广费用'],
  },
  { id: 'advertising', en: ['advertising expense', 'advertising costs'], ja: ['広告宣伝費'], zh: ['广告费', '广告宣传费'] },
  {
    id: 'research-and-development',
    en: ['research and development', 'r&d', 'research and development expenses'],
    ja: ['研究開発費', '研究開発費用'],
    zh: ['研发费用', '研发费', '研发投入', '研究开发费用', '研究发展费用'],
  },
  {
    id: 'depreciation-and-amortization',
    en: [
      'depreciation and amortization',
      'd&a',
      'depreciation',
      'depreciation, depletion and amortization',
      'depreciation expense',
    ],
    ja: ['減価償却費', '減価償却費及び償却費'],
    zh: ['折旧与摊销', '折旧和摊销', '折旧及摊销', '折旧费用', '固定资产折旧'],
  },
  {
    id: 'stock-based-compensation',
    en: ['stock-based compensation', 'share-based compensation', 'equity-based compensation'],
    ja: ['株式報酬費用', '株式報酬'],
    zh: ['股份支付', '股份支付费用', '股权激励费用'],
  },
  {
    id: 'employee-benefits',
    en: ['employee benefits', 'personnel expenses', 'staff costs', 'employee benefit expense'],
    ja: ['人件費', '従業員給付費用'],
    zh: ['职工薪酬', '应付职工薪酬'],
  },
  {
    id: 'operating-income',
    en: ['operating income', 'operating profit', 'income from operations', 'operating earnings', 'earnings from operations'],
    ja: ['営業利益'],
    zh: ['营业利润', '營業利益', '经营利润'],
  },
  {
    id: 'operating-margin',
    en: ['operating margin', 'operating profit margin', 'operating income margin'],
    ja: ['営業利益率', '売上高営業利益率'],
    zh: ['营业利润率', '營業利益率'],
    of: ['operating-income', 'revenue'],
  },
  { id: 'ordinary-income', en: ['ordinary income', 'ordinary profit', 'recurring profit'], ja: ['経常利益'], zh: [] },
  {
    id: 'non-operating-income',
    en: ['non-operating income', 'other income', 'other income (expense), net'],
    ja: ['営業外収益'],
    zh: ['营业外收入'],
  },
  { id: 'interest-expense', en: ['interest expense', 'interest expense, net'], ja: ['支払利息'], zh: ['利息费用', '利息支出'] },
  {
    id: 'interest-income',
    en: ['interest income', 'interest and dividend income'],
    ja: ['受取利息', '受取利息及び配当金'],
    zh: ['利息收入'],
  },
  {
    id: 'ebitda',
    en: ['ebitda', 'adjusted ebitda'],
    ja: [],
    zh: ['息税折旧摊销前利润'],
    of: ['operating-income', 'depreciation-and-amortization'],
  },
  { id: 'ebit', en: ['ebit', 'earnings before interest and taxes'], ja: ['利払前税引前利益'], zh: ['息税前利润'] },
  {
    id: 'pretax-income',
    en: [
      'income before income taxes',
      'pretax income',
      'pre-tax income',
      'profit before tax',
      'earnings before income taxes',
      'income before taxes',
    ],
    ja: ['税引前当期純利益', '税金等調整前当期純利益', '税引前利益'],
    zh: ['利润总额', '税前利润'],
  },
  {
    id: 'income-tax-expense',
    en: ['income tax expense', 'provision for income taxes', 'income taxes', 'tax expense'],
    ja: ['法人税等', '法人税等合計', '法人税、住民税及び事業税'],
    zh: ['所得税费用', '所得税'],
  },
  {
    id: 'effective-tax-rate',
    en: ['effective tax rate', 'effective income tax rate'],
    ja: ['実効税率', '法人税等の負担率'],
    zh: ['实际税率', '有效税率'],
    of: ['income-tax-expense', 'pretax-income'],
  },
  {
    id: 'net-income',
    en: [
      'net income',
      'net earnings',
      'net profit',
      'profit for the year',
      'net income attributable to',
      'profit attributable to owners of the parent',
      'bottom line',
    ],
    ja: ['当期純利益', '親会社株主に帰属する当期純利益', '純利益', '当期利益', '親会社の所有者に帰属する当期利益'],
    zh: ['净利润', '归属于母公司所有者的净利润', '归属于上市公司股东的净利润', '归母净利润', '本期净利', '净利'],
  },
  {
    id: 'net-margin',
    en: ['net margin', 'net profit margin', 'net income margin'],
    ja: ['売上高純利益率', '純利益率'],
    zh: ['净利率', '净利润率'],
    of: ['net-income', 'revenue'],
  },
  {
    id: 'comprehensive-income',
    en: ['comprehensive income', 'total comprehensive income'],
    ja: ['包括利益'],
    zh: ['综合收益总额', '综合收益'],
  },
  {
    id: 'eps',
    en: ['earnings per share', 'eps', 'diluted earnings per share', 'basic earnings per share', 'net income per share'],
    ja: ['1株当たり当期純利益', '一株当たり当期純利益', '1株当たり利益', '1株当たり当期利益'],
    zh: ['每股收益', '基本每股收益', '稀释每股收益', '每股盈余'],
  },
  {
    id: 'dividends-per-share',
    en: ['dividends per share', 'dps', 'cash dividends declared per share'],
    ja: ['1株当たり配当額', '1株当たり配当金', '一株当たり配当金'],
    zh: ['每股股利', '每股派息', '每股分红', '每股现金股利'],
  },
  {
    id: 'book-value-per-share',
    en: ['book value per share', 'bvps', 'net assets per share'],
    ja: ['1株当たり純資産', '1株当たり純資産額', 'BPS'],
    zh: ['每股净资产'],
    of: ['equity'],
  },
  {
    id: 'payout-ratio',
    en: ['payout ratio', 'dividend payout ratio'],
    ja: ['配当性向'],
    zh: ['股利支付率', '分红率', '派息率'],
    of: ['dividends-paid', 'net-income'],
  },
  // Balance sheet
  {
    id: 'cash',
    en: ['cash and cash equivalents', 'cash and equivalents'],
    ja: ['現金及び現金同等物', '現金及び預金', '現金預金'],
    zh: ['现金及现金等价物', '货币资金', '现金及约当现金'],
  },
  {
    id: 'allowance-for-doubtful-accounts',
    en: ['allowance for doubtful accounts', 'allowance for credit losses', 'bad debt allowance'],
    ja: ['貸倒引当金'],
    zh: ['坏账准备'],
  },
  {
    id: 'accounts-receivable',
    en: ['accounts receivable', 'trade receivables', 'trade and other receivables', 'receivables', 'trade accounts receivable'],
    ja: ['売掛金', '受取手形及び売掛金', '売上債権'],
    zh: ['应收账款', '应收帐款', '应收票据及应收账款'],
  },
  { id: 'inventories', en: ['inventories', 'merchandise inventories'], ja: ['棚卸資産', '商品及び製品', '在庫'], zh: ['存货'] },
  {
    id: 'inventory-turnover',
    en: ['inventory turnover', 'inventory turnover ratio'],
    ja: ['棚卸資産回転率', '在庫回転率'],
    zh: ['存货周转率'],
    of: ['cost-of-revenue', 'inventories'],
  },
  {
    id: 'current-assets',
    en: ['current assets', 'total current assets'],
    ja: ['流動資産', '流動資産合計'],
    zh: ['流动资产', '流动资产合计'],
  },
  {
    id: 'ppe',
    en: ['property, plant and equipment', 'pp&e', 'property and equipment', 'fixed assets', 'property, plant and equipment, net'],
    ja: ['有形固定資産'],
    zh: ['固定资产', '不动产、厂房及设备'],
  },
  { id: 'construction-in-progress', en: ['construction in progress'], ja: ['建設仮勘定'], zh: ['在建工程'] },
  {
    id: 'deferred-tax-assets',
    en: ['deferred tax assets', 'deferred income tax assets'],
    ja: ['繰延税金資産'],
    zh: ['递延所得税资产'],
  },
  { id: 'goodwill', en: ['goodwill'], ja: ['のれん'], zh: ['商誉'] },
  {
    id: 'intangible-assets',
    en: ['intangible assets', 'other intangible assets'],
    ja: ['無形固定資産', '無形資産'],
    zh: ['无形资产'],
  },
  {
    id: 'non-current-assets',
    en: ['non-current assets', 'noncurrent assets', 'total non-current assets'],
    ja: ['固定資産合計', '非流動資産'],
    zh: ['非流动资产', '非流动资产合计'],
  },
  {
    id: 'total-assets',
    en: ['total assets'],
    ja: ['総資産', '資産合計', '資産の部合計', '総資本'],
    zh: ['资产总计', '总资产', '资产总额'],
  },
  {
    id: 'accounts-payable',
    en: ['accounts payable', 'trade payables', 'trade and other payables', 'trade accounts payable'],
    ja: ['買掛金', '支払手形及び買掛金', '仕入債務'],
    zh: ['应付账款', '应付帐款', '应付票据及应付账款'],
  },
  {
    id: 'deferred-revenue',
    en: ['deferred revenue', 'unearned revenue', 'contract liabilities'],
    ja: ['契約負債', '前受金'],
    zh: ['合同负债', '预收款项', '预收账款'],
  },
  {
    id: 'non-current-liabilities',
    en: ['non-current liabilities', 'noncurrent liabilities', 'total non-current liabilities', 'long-term liabilities'],
    ja: ['固定負債', '固定負債合計', '非流動負債'],
    zh: ['非流动负债', '非流动负债合计'],
  },
  {
    id: 'deferred-tax-liabilities',
    en: ['deferred tax liabilities', 'deferred income tax liabilities'],
    ja: ['繰延税金負債'],
    zh: ['递延所得税负债'],
  },
  {
    id: 'current-liabilities',
    en: ['current liabilities', 'total current liabilities'],
    ja: ['流動負債', '流動負債合計'],
    zh: ['流动负债', '流动负债合计'],
  },
  {
    id: 'short-term-debt',
    en: ['short-term debt', 'short-term borrowings', 'notes payable', 'commercial paper'],
    ja: ['短期借入金'],
    zh: ['短期借款'],
  },
  {
    id: 'long-term-debt',
    en: ['long-term debt', 'long-term borrowings', 'long-term loans', 'long-term debt, net of current portion'],
    ja: ['長期借入金'],
    zh: ['长期借款'],
  },
  { id: 'bonds', en: ['bonds payable', 'senior notes', 'corporate bonds'], ja: ['社債'], zh: ['应付债券'] },
  {
    id: 'total-debt',
    en: ['total debt', 'total borrowings', 'interest-bearing debt'],
    ja: ['有利子負債'],
    zh: ['有息负债', '带息负债'],
  },
  {
    id: 'total-liabilities',
    en: ['total liabilities'],
    ja: ['負債合計', '総負債', '負債の部合計'],
    zh: ['负债合计', '总负债', '负债总额', '负债总计'],
  },
  { id: 'treasury-stock', en: ['treasury stock', 'treasury shares'], ja: ['自己株式'], zh: ['库存股'] },
  {
    id: 'retained-earnings',
    en: ['retained earnings', 'accumulated deficit'],
    ja: ['利益剰余金'],
    zh: ['未分配利润', '留存收益', '保留盈余'],
  },
  {
    id: 'equity',
    en: [
      "shareholders' equity",
      "stockholders' equity",
      'total equity',
      "total shareholders' equity",
      "total stockholders' equity",
      'equity attributable to owners of the parent',
      'net assets',
      'book value',
    ],
    ja: ['純資産', '純資産合計', '自己資本', '株主資本', '株主資本合計'],
    zh: ['所有者权益', '股东权益', '所有者权益合计', '股东权益合计', '归属于母公司所有者权益', '净资产', '权益总额'],
  },
  {
    id: 'total-liabilities-and-equity',
    en: [
      'total liabilities and equity',
      "total liabilities and shareholders' equity",
      "total liabilities and stockholders' equity",
    ],
    ja: ['負債純資産合計', '負債及び純資産合計'],
    zh: ['负债和所有者权益总计', '负债及股东权益总计', '负债和股东权益总计'],
  },
  {
    id: 'working-capital',
    en: ['working capital', 'net working capital'],
    ja: ['運転資本', '正味運転資本'],
    zh: ['营运资本', '营运资金'],
    of: ['current-assets', 'current-liabilities'],
  },
  // Cash flow statement
  {
    id: 'operating-cash-flow',
    en: [
      'operating cash flow',
      'cash flow from operations',
      'cash flows from operating activities',
      'net cash provided by operating activities',
      'net cash from operating activities',
      'cash from operations',
      'net cash provided by (used in) operating activities',
    ],
    ja: ['営業活動によるキャッシュ・フロー', '営業キャッシュ・フロー', '営業CF'],
    zh: ['经营活动产生的现金流量净额', '经营活动现金流量', '经营性现金流', '营业活动之净现金流入'],
  },
  {
    id: 'investing-cash-flow',
    en: [
      'investing cash flow',
      'cash flows from investing activities',
      'net cash used in investing activities',
      'net cash provided by (used in) investing activities',
    ],
    ja: ['投資活動によるキャッシュ・フロー', '投資キャッシュ・フロー', '投資CF'],
    zh: ['投资活动产生的现金流量净额', '投资活动现金流量'],
  },
  {
    id: 'financing-cash-flow',
    en: [
      'financing cash flow',
      'cash flows from financing activities',
      'net cash used in financing activities',
      'net cash provided by (used in) financing activities',
    ],
    ja: ['財務活動によるキャッシュ・フロー', '財務キャッシュ・フロー', '財務CF'],
    zh: ['筹资活动产生的现金流量净额', '筹资活动现金流量'],
  },
  {
    id: 'capital-expenditure',
    en: [
      'capital expenditure',
      'capex',
      'purchases of property, plant and equipment',
      'additions to property, plant and equipment',
      'additions to property and equipment',
      'payments for property, plant and equipment',
      'capital spending',
      'expenditures for property, plant and equipment',
      'purchases of property and equipment',
    ],
    ja: ['設備投資', '設備投資額', '有形固定資産の取得による支出'],
    zh: ['资本支出', '资本开支', '购建固定资产、无形资产和其他长期资产支付的现金', '购建固定资产', '取得不动产、厂房及设备'],
  },
  {
    id: 'free-cash-flow',
    en: ['free cash flow', 'fcf'],
    ja: ['フリー・キャッシュ・フロー'],
    zh: ['自由现金流', '自由现金流量'],
    of: ['operating-cash-flow', 'capital-expenditure'],
  },
  {
    id: 'dividends-paid',
    en: ['dividends paid', 'cash dividends paid', 'payments of dividends', 'dividend payments', 'dividends'],
    ja: ['配当金の支払額', '配当金支払額', '配当金'],
    zh: ['分配股利', '分配股利、利润或偿付利息支付的现金', '支付股利', '派发股息', '股利', '现金分红'],
  },
  {
    id: 'share-repurchases',
    en: [
      'share repurchases',
      'stock repurchases',
      'repurchases of common stock',
      'share buybacks',
      'buybacks',
      'purchases of treasury stock',
    ],
    ja: ['自己株式の取得', '自己株式の取得による支出', '自社株買い'],
    zh: ['股份回购', '回购股份', '股票回购'],
  },
  // Ratios and other disclosures
  {
    id: 'return-on-equity',
    en: ['return on equity', 'roe'],
    ja: ['自己資本利益率', '自己資本当期純利益率'],
    zh: ['净资产收益率', '加权平均净资产收益率'],
    of: ['net-income', 'equity'],
  },
  {
    id: 'return-on-assets',
    en: ['return on assets', 'roa'],
    ja: ['総資産利益率', '総資産経常利益率'],
    zh: ['总资产收益率', '总资产报酬率'],
    of: ['net-income', 'total-assets'],
  },
  {
    id: 'asset-turnover',
    en: ['asset turnover', 'total asset turnover'],
    ja: ['総資産回転率', '総資本回転率'],
    zh: ['总资产周转率'],
    of: ['revenue', 'total-assets'],
  },
  {
    id: 'days-sales-outstanding',
    en: ['days sales outstanding', 'dso', 'days receivables'],
    ja: ['売上債権回転日数'],
    zh: ['应收账款周转天数'],
    of: ['accounts-receivable', 'revenue'],
  },
  {
    id: 'days-inventory-outstanding',
    en: ['days inventory outstanding', 'dio', 'days in inventory', 'days sales of inventory'],
    ja: ['棚卸資産回転日数', '在庫回転日数'],
    zh: ['存货周转天数'],
    of: ['inventories', 'cost-of-revenue'],
  },
  {
    id: 'days-payable-outstanding',
    en: ['days payable outstanding', 'dpo', 'days payables'],
    ja: ['仕入債務回転日数'],
    zh: ['应付账款周转天数'],
    of: ['accounts-payable', 'cost-of-revenue'],
  },
  {
    id: 'cash-conversion-cycle',
    en: ['cash conversion cycle', 'ccc', 'cash-to-cash cycle'],
    ja: ['キャッシュ・コンバージョン・サイクル'],
    zh: ['现金转换周期'],
    of: ['inventories', 'accounts-receivable', 'accounts-payable', 'cost-of-revenue', 'revenue'],
  },
  {
    id: 'fixed-asset-turnover',
    en: ['fixed asset turnover', 'fixed asset turnover ratio'],
    ja: ['有形固定資産回転率', '固定資産回転率'],
    zh: ['固定资产周转率'],
    of: ['revenue', 'ppe'],
  },
  {
    id: 'interest-coverage',
    en: ['interest coverage ratio', 'interest coverage', 'times interest earned'],
    ja: ['インタレスト・カバレッジ・レシオ'],
    zh: ['利息保障倍数'],
    of: ['operating-income', 'interest-expense'],
  },
  {
    id: 'current-ratio',
    en: ['current ratio', 'working capital ratio'],
    ja: ['流動比率'],
    zh: ['流动比率'],
    of: ['current-assets', 'current-liabilities'],
  },
  {
    id: 'quick-ratio',
    en: ['quick ratio', 'acid-test ratio'],
    ja: ['当座比率'],
    zh: ['速动比率'],
    of: ['cash', 'accounts-receivable', 'current-liabilities'],
  },
  {
    id: 'debt-to-equity',
    en: ['debt-to-equity ratio', 'debt to equity', 'd/e ratio'],
    ja: ['D/Eレシオ', '負債資本倍率'],
    zh: ['产权比率'],
    of: ['total-debt', 'equity'],
  },
  { id: 'equity-ratio', en: ['equity ratio'], ja: ['自己資本比率'], zh: ['股东权益比率'], of: ['equity', 'total-assets'] },
  {
    id: 'employees',
    en: ['employees', 'number of employees', 'headcount', 'full-time employees', 'workforce'],
    ja: ['従業員数', '従業員', '社員数'],
    zh: ['员工人数', '员工总数', '员工数量', '在职员工'],
  },
];
