// Test support of the profile (`@jobctrl/shared/profile/testing`, pure data): the specs of every lib
// and the bench share one profile and posting. Kept out of the production entry point.
export { sampleProfile, samplePosting } from './profile.fixture';
