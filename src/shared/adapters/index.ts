// Venue adapters (DESIGN §3.5): the format, its compiler, the shipped set and the decoder that picks one.
export { ADAPTER_FORMAT, AdapterFile, parseAdapter, type AdapterSpec } from './schema'
export { AdapterState, compileAdapter, compilePatterns, type CompiledAdapter } from './compile'
export { backtrackingRisk, compilePattern, type Matcher, type RegexEngine } from './regex'
export { builtinAdapters, builtinSpecs } from './builtin'
export { AUTO, FrameDecoder, TOLERANT, type Decoded, type DecoderOptions, type TextDecoded } from './decoder'
