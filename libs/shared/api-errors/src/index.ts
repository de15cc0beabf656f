// The API's 400/409 bodies, built in one place: the apps and the domain and feature libs whose
// services refuse requests (sources, runs) answer with the same shape.
export * from './http-errors';
