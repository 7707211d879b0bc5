/**
 * The topic categories of compar:IA's datasets (derived from TXT360), spelled exactly as they
 * publish them so that our `categories` column filters the same way theirs does.
 */
export const TOPIC_CATEGORIES = [
  'Arts',
  'Business & Economics & Finance',
  'Culture & Cultural geography',
  'Daily Life & Home & Lifestyle',
  'Education',
  'Entertainment & Travel & Hobby',
  'Environment',
  'Food & Drink & Cooking',
  'Health & Wellness & Medicine',
  'Law & Justice',
  'Natural Science & Formal Science & Technology',
  'Personal Development & Human Resources & Career',
  'Politics & Government',
  'Religion & Spirituality',
  'Shopping & Commodity',
  'Society & Social Issues & Human Rights',
  'Sports',
  'Other',
] as const;

export type TopicCategory = (typeof TOPIC_CATEGORIES)[number];
