// Error codes shared by activities, workflows and the API (the spec's names) live in
// @jobctrl/shared/errors, the one lib both the contracts and the shared libs may import.
export { ErrorCodes, type ErrorCode } from '@jobctrl/shared/errors';
