export * from './preparation.activities';
export * from './extractive-preparation.activity';
