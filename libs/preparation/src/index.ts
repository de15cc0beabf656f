export * from './preparation.activities';
export * from './preparation.module';
export * from './profile/profile.dto';
export * from './profile/profile.service';
export * from './runs/job-query.service';
export * from './runs/pipeline-run.dto';
export * from './runs/pipeline-run.service';
export * from './spend/spend.service';
