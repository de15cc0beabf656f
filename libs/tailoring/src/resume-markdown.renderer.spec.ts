import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { tailorResumeExtractive } from './extractive-tailor.rules';
import { renderResumeMarkdown } from './resume-markdown.renderer';

describe('renderResumeMarkdown', () => {
  const profile = sampleProfile();
  const markdown = renderResumeMarkdown(tailorResumeExtractive(profile, samplePosting()), profile.contact);

  it('renders contact, sections, dates and bullets in resume order', () => {
    expect(markdown.startsWith('# Dana Whitfield\n\nToronto, Canada · dana.whitfield@example.com · +1 416 555 0199 · https://github.com/dwhitfield\n\n## Summary\n\n')).toBe(true);
    expect(markdown).toContain('## Skills\n\nTypeScript · PostgreSQL · k8s · Terraform');
    expect(markdown).toContain('### Senior Backend Engineer — Globex\nMar 2021 – Present · Toronto, Canada\n\n- Introduced Terraform for all AWS infrastructure');
    expect(markdown).toContain('### Junior Developer — Northwind Traders\nJan 2015 – May 2017\n\n- Automated weekly sales reports');
    expect(markdown).toContain('## Education\n\n### BASc, Computer Engineering — University of Waterloo\nSep 2010 – Dec 2014');
    expect(markdown.indexOf('— Globex')).toBeLessThan(markdown.indexOf('— Acme Corporation'));
    expect(markdown.endsWith('\n')).toBe(true);
  });

  it('escapes markdown in user text and leaves out empty sections', () => {
    const out = renderResumeMarkdown(
      { summary: '', skills: [], education: [], experience: [{ employer: 'A_B', title: 'Dev', start: '2020', end: '2021', bullets: ['Used *nix [daily]'] }] },
      { name: 'X', email: 'x@example.com' },
    );
    expect(out).toBe('# X\n\nx@example.com\n\n## Experience\n\n### Dev — A\\_B\n2020 – 2021\n\n- Used \\*nix \\[daily\\]\n');
  });
});
