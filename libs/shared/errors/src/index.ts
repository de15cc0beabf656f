// The bottom of the dependency graph: shared libs and the pipeline contracts both need these words,
// and neither may import the other, so this lib is tagged type:shared AND type:contracts and
// imports nothing. Pure constants only: workflows reach it through the contracts.
export * from './error-codes';
