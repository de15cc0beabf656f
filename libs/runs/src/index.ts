export * from './runs.module';
export * from './pipeline-run.repository';
export * from './pipeline-run.dto';
export * from './pipeline-run.service';
export * from './job-query.service';
export * from './profile/profile.dto';
export * from './profile/profile.service';
export * from './spend/spend.service';
