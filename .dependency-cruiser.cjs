/** Dependency direction (../DESIGN.md §2): core ← domain packages ← services; web sees only core. */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'core-is-a-leaf',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^(packages/(?!core/)|services/|web/)' },
    },
    {
      name: 'packages-never-import-services-or-web',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(services|web)/' },
    },
    {
      name: 'web-imports-only-core',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(packages/(?!core/)|services/)' },
    },
    {
      name: 'services-do-not-import-each-other',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'test-kit-only-in-tests',
      comment:
        "The test kit (@pinpoint/testing: wire fakes, generated ONNX models), the conformance suites and each package's test/ helpers are for tests only: runtime code never loads them.",
      severity: 'error',
      from: {
        path: '^(packages|services|web)/',
        pathNot: ['\\.test\\.ts$', '^packages/(testing|conformance|bench)/', '^(packages|services)/[^/]+/test/'],
      },
      to: { path: '^(packages/(testing|conformance)/|(packages|services)/[^/]+/test/)' },
    },
    {
      name: 'parsers-stay-pure',
      comment: 'Parsers never import storage, retrieval or services.',
      severity: 'error',
      from: { path: '^packages/parsers/' },
      to: { path: '^packages/(storage|retrieval|engine|answering|eval|cli)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|dist|\\.vite)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
    enhancedResolveOptions: { conditionNames: ['source', 'import', 'default'], exportsFields: ['exports'] },
  },
};
