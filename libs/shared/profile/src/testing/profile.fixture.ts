import type { Profile } from '../profile.model';

/**
 * Test support shared by every lib that works from a profile (scoring, tailoring, cover letters),
 * so their specs exercise the same realistic document instead of each keeping a private copy.
 * Functions return fresh objects: a spec may mutate its copy freely.
 *
 * The profile is deliberately uneven: the current role has more than five bullets (tailoring keeps
 * at most five), entries are not listed in date order, bullets carry numbers, percentages and money
 * amounts (what the no-new-facts check guards), and one skill is outside the skill vocabulary.
 */
export function sampleProfile(): Profile {
  return {
    contact: {
      name: 'Dana Whitfield',
      email: 'dana.whitfield@example.com',
      phone: '+1 416 555 0199',
      location: 'Toronto, Canada',
      links: ['https://github.com/dwhitfield'],
    },
    summary:
      'Backend engineer with a decade of experience building payment and data platforms in TypeScript and Go. Led the platform team at Globex and shipped billing systems at Acme Corporation.',
    skills: ['TypeScript', 'Node.js', 'golang', 'PostgreSQL', 'k8s', 'Terraform', 'Kafka', 'AWS', 'GraphQL', 'React', 'Python', 'Event sourcing'],
    experience: [
      {
        employer: 'Acme Corporation',
        title: 'Software Engineer',
        start: '2017-06',
        end: '2021-02',
        location: 'Waterloo, Canada',
        bullets: [
          'Maintained the React front end of the billing portal.',
          'Built GraphQL APIs in TypeScript and Node.js serving the customer dashboard.',
          'Reduced AWS spend by $120k a year by rightsizing EC2 fleets.',
          'Added contract tests that caught 30% more regressions before release.',
        ],
      },
      {
        employer: 'Globex',
        title: 'Senior Backend Engineer',
        start: '2021-03',
        end: null,
        location: 'Toronto, Canada',
        bullets: [
          'Organised the quarterly hackathon and internal tech talks.',
          'Led the migration of 40 services from a monolith to Kubernetes, cutting deploy time from 2 hours to 15 minutes.',
          'Designed an event sourcing pipeline on Kafka processing 3 million payment events per day.',
          'Mentored 4 engineers through promotion to senior roles.',
          'Built a PostgreSQL partitioning scheme that reduced p99 query latency by 60%.',
          'Introduced Terraform for all AWS infrastructure, replacing manual console changes.',
          'Wrote the on-call runbook used by 5 teams.',
        ],
      },
      {
        employer: 'Northwind Traders',
        title: 'Junior Developer',
        start: '2015-01',
        end: '2017-05',
        bullets: ['Automated weekly sales reports with Python and SQL.', 'Fixed bugs in the inventory system.'],
      },
    ],
    education: [{ school: 'University of Waterloo', degree: 'BASc', field: 'Computer Engineering', start: '2010-09', end: '2014-12' }],
    preferences: { titles: ['Backend Engineer', 'Platform Engineer'], locations: ['Toronto, Canada'], remote: true, minimumSalary: 150000, salaryCurrency: 'CAD' },
  };
}

/** A posting the sample profile fits well: platform work on Kubernetes, Terraform, Kafka and PostgreSQL. */
export function samplePosting(): { title: string; company: string; description: string; requirements?: string[]; location?: string; remote?: boolean } {
  return {
    title: 'Senior Platform Engineer',
    company: 'Lumen Payments',
    location: 'Toronto, ON',
    remote: true,
    description: [
      'Lumen Payments moves money for 2,000 merchants. Our platform team owns the infrastructure every product team deploys to.',
      'You will run our Kubernetes clusters, manage AWS with Terraform, and scale the Kafka event backbone.',
      'We value experience with PostgreSQL at scale and with Go or TypeScript services.',
      'Nice to have: Rust, Datadog.',
    ].join('\n'),
  };
}
