export * from './counting-server.testing';
