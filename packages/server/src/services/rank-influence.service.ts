import { type Influence, INFLUENCE_GROUP_CHARS, INFLUENCE_MAX_TOP, type InfluenceQuery } from '@agora/contract';
import type { IntegrityRules } from '../domain/arena/vote-integrity';
import type { GroupInfluence, ModelInfluence } from '../domain/ranking/influence';
import { viewKey } from '../domain/ranking/leaderboard-views';
import type { Store } from '../db/unit-of-work';
import { AppError } from './app-error';
import { type InfluenceGrouping, storeInfluence, type StoreInfluenceReport } from './rank-influence';

const round = (value: number) => Math.round(value * 100) / 100;

/** The largest |change| any group makes to the model: the order of the page without a model. */
const strongest = (entry: ModelInfluence) => Math.abs(entry.groups[0]?.points ?? 0);

function groupJson(group: GroupInfluence) {
  return {
    group: group.group.slice(0, INFLUENCE_GROUP_CHARS),
    points: round(group.points),
    votes: group.votes,
    votes_on_model: group.votesOnModel,
    rank_before: group.rankBefore,
    rank_after: group.rankAfter,
    alert: group.alert,
  };
}

/** The console's answer from a full report: `top` groups per model, one model or every model by its strongest group. */
export function influenceAnswer(report: StoreInfluenceReport, query: InfluenceQuery): Influence {
  const models = query.model === undefined ? [...report.models].sort((x, y) => strongest(y) - strongest(x)) : report.models;
  const shown = models.filter((entry) => query.model === undefined || entry.model === query.model);
  return {
    by: query.by,
    include_flagged: query.include_flagged,
    board_generated_at: report.boardGeneratedAt,
    votes: report.votes,
    groups: report.groups,
    undefined_groups: report.undefinedGroups.length,
    alert_rule: { half_width_share: report.alertRule.halfWidthShare, points: report.alertRule.points },
    models: shown.map((entry) => {
      const groups = entry.groups.slice(0, query.top).map(groupJson);
      return {
        model: entry.model,
        rating: round(entry.rating),
        half_width: round(entry.halfWidth),
        alert: groups.some((group) => group.alert),
        groups,
      };
    }),
    plans: report.plans
      .filter((plan) => query.model === undefined || plan.higher === query.model || plan.lower === query.model)
      .map((plan) => ({
        higher: plan.higher,
        lower: plan.lower,
        gap_points: round(plan.gapPoints),
        overlap_points: round(plan.overlapPoints),
        votes_between: plan.votesBetween,
        votes_spread: plan.votesSpread,
      })),
  };
}

/**
 * Rank influence for the console (`GET /api/v1/admin/influence`). One computation reads every vote
 * of the store and fits the board: it is kept per leaderboard refresh (the main board's stored
 * `generated_at`, the same on every instance), per grouping and per flagged/unflagged, with the
 * most groups the API may ask for; a reviewer reloading the page reads the kept answer.
 */
export class RankInfluenceService {
  private stamp: string | null | undefined;
  private readonly reports = new Map<string, Promise<StoreInfluenceReport>>();

  constructor(
    private readonly store: Store,
    private readonly settings: { integrity: IntegrityRules; customModeOnMainBoard: boolean },
  ) {}

  async influence(query: InfluenceQuery): Promise<Influence> {
    const report = await this.report(query.by, query.include_flagged);
    if (query.model !== undefined && !report.models.some((entry) => entry.model === query.model)) {
      throw new AppError('not_found', `no model ${query.model} on the main board`);
    }
    return influenceAnswer(report, query);
  }

  private async report(by: InfluenceGrouping, includeFlagged: boolean): Promise<StoreInfluenceReport> {
    const [board] = await this.store.leaderboards.snapshotsOfView(viewKey({ style: 'plain' }), 1);
    const stamp = board?.generatedAt ?? null;
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      this.reports.clear();
    }
    const key = `${by}:${includeFlagged}`;
    const kept = this.reports.get(key);
    if (kept !== undefined) return kept;
    const report = storeInfluence(this.store, by, { ...this.settings, includeFlagged, top: INFLUENCE_MAX_TOP });
    this.reports.set(key, report);
    // A failed computation is not kept: the next request tries again.
    report.catch(() => {
      if (this.reports.get(key) === report) this.reports.delete(key);
    });
    return report;
  }
}
