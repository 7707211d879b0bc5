import { type Kysely, sql } from 'kysely';
import type { Database } from './database';
import { AnnotationRepository } from './repositories/annotation.repository';
import { ComparIaImportRepository } from './repositories/comparia-import.repository';
import { DatasetRepository } from './repositories/dataset.repository';
import { DuelRepository } from './repositories/duel.repository';
import { FeedbackRepository } from './repositories/feedback.repository';
import { LeaderboardRepository } from './repositories/leaderboard.repository';
import { LeaseRepository } from './repositories/lease.repository';
import { MaxxRepository } from './repositories/maxx.repository';
import { MaxxCheckRepository } from './repositories/maxx-check.repository';
import { ReviewRepository } from './repositories/review.repository';
import { VisitorDuelsRepository } from './repositories/visitor-duels.repository';
import { StatisticsRepository } from './repositories/statistics.repository';
import { StaffRepository } from './repositories/staff.repository';
import { AuditRepository } from './repositories/audit.repository';
import { ActivityRepository } from './repositories/activity.repository';
import { PublicationRepository } from './repositories/publication.repository';
import { ConsoleContentRepository } from './repositories/console-content.repository';
import { ModelOverrideRepository } from './repositories/model-override.repository';
import { ModelProfileRepository } from './repositories/model-profile.repository';
import { TurnVerdictRepository } from './repositories/turn-verdict.repository';
import { SurveyAnswerRepository } from './repositories/survey-answer.repository';
import { PromptClusterRepository } from './repositories/prompt-cluster.repository';
import { RankingColumnsRepository } from './repositories/ranking-columns.repository';

/** The repositories, bound to one connection or one transaction. */
export interface Repositories {
  duels: DuelRepository;
  feedback: FeedbackRepository;
  leaderboards: LeaderboardRepository;
  annotations: AnnotationRepository;
  comparIaImport: ComparIaImportRepository;
  reviews: ReviewRepository;
  datasets: DatasetRepository;
  maxx: MaxxRepository;
  maxxChecks: MaxxCheckRepository;
  leases: LeaseRepository;
  visitorDuels: VisitorDuelsRepository;
  statistics: StatisticsRepository;
  staff: StaffRepository;
  audit: AuditRepository;
  activity: ActivityRepository;
  publication: PublicationRepository;
  consoleContent: ConsoleContentRepository;
  modelOverrides: ModelOverrideRepository;
  modelProfiles: ModelProfileRepository;
  turnVerdicts: TurnVerdictRepository;
  surveyAnswers: SurveyAnswerRepository;
  promptClusters: PromptClusterRepository;
  rankingColumns: RankingColumnsRepository;
}

/** What services get: repositories, transactions and a health probe, without Kysely itself. */
export interface Store extends Repositories {
  /** Runs the callback in one transaction with repositories bound to it; commits when it resolves. */
  transaction: <T>(work: (repositories: Repositories) => Promise<T>) => Promise<T>;
  /** Answers when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const bind = (db: Kysely<Database>): Repositories => ({
  duels: new DuelRepository(db),
  feedback: new FeedbackRepository(db),
  leaderboards: new LeaderboardRepository(db),
  annotations: new AnnotationRepository(db),
  comparIaImport: new ComparIaImportRepository(db),
  reviews: new ReviewRepository(db),
  datasets: new DatasetRepository(db),
  maxx: new MaxxRepository(db),
  maxxChecks: new MaxxCheckRepository(db),
  leases: new LeaseRepository(db),
  visitorDuels: new VisitorDuelsRepository(db),
  statistics: new StatisticsRepository(db),
  staff: new StaffRepository(db),
  audit: new AuditRepository(db),
  activity: new ActivityRepository(db),
  publication: new PublicationRepository(db),
  consoleContent: new ConsoleContentRepository(db),
  modelOverrides: new ModelOverrideRepository(db),
  modelProfiles: new ModelProfileRepository(db),
  turnVerdicts: new TurnVerdictRepository(db),
  surveyAnswers: new SurveyAnswerRepository(db),
  promptClusters: new PromptClusterRepository(db),
  rankingColumns: new RankingColumnsRepository(db),
});

export function createStore(db: Kysely<Database>): Store {
  return {
    ...bind(db),
    transaction: (work) => db.transaction().execute((transaction) => work(bind(transaction))),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
