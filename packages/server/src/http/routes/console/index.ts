import { Hono } from 'hono';
import type { ActivityService } from '../../../services/activity.service';
import type { AuditService } from '../../../services/audit.service';
import type { ModelCatalogueService } from '../../../services/models/model-catalogue.service';
import type { ContentService } from '../../../services/content.service';
import type { PublicationService } from '../../../services/publication/publication.service';
import type { RankInfluenceService } from '../../../services/rank-influence.service';
import type { StaffService } from '../../../services/staff.service';
import type { AppEnv } from '../../app-env';
import { activityAdminRoutes } from './activity.routes';
import { contentAdminRoutes } from './content.routes';
import { influenceAdminRoutes } from './influence.routes';
import { modelAdminRoutes } from './models.routes';
import { publicationRoutes } from './publication.routes';
import { staffAdminRoutes } from './staff.routes';

/**
 * The services behind the console's own routes (composition/console-services.ts builds them). Each
 * console area (staff and audit, models, content, publication, activity…) adds its service here
 * and mounts its routes below, each route with its role (middleware/staff-auth.ts `requireRole`).
 */
export interface ConsoleServices {
  staff: StaffService;
  audit: AuditService;
  publication: PublicationService;
  models: ModelCatalogueService;
  activity: ActivityService;
  content: ContentService;
  influence: RankInfluenceService;
}

/** `/api/v1/admin/*` routes of the console's areas, mounted behind the staff authentication. */
export function consoleRoutes(services: ConsoleServices): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.route('/', staffAdminRoutes(services.staff, services.audit));
  routes.route('/', publicationRoutes(services.publication));
  routes.route('/', modelAdminRoutes(services.models));
  routes.route('/', activityAdminRoutes(services.activity));
  routes.route('/', contentAdminRoutes(services.content));
  routes.route('/', influenceAdminRoutes(services.influence));
  return routes;
}
