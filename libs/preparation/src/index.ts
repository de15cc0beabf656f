export * from './preparation.activities';
