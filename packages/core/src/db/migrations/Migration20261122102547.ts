import { Migration } from '@mikro-orm/migrations';

export class Migration20261122102547 extends Migration {
  override name = 'Migration20261122102547';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(
      `create table "rate_limit_windows" ("bucket" varchar(200) not null, "window_start" timestamptz not null, "hits" int not null, primary key ("bucket"));`,
    );

    this.addSql(
      `create table "tenants" ("id" serial primary key, "slug" varchar(100) not null, "name" varchar(255) not null, "default_language" varchar(2) not null default 'en', "api_enabled" boolean not null default true, "career_site_domain" varchar(255) null, "url_pattern" varchar(2048) null, "domains" text[] not null default '{}', "created_at" timestamptz not null default now());`,
    );
    this.addSql(`alter table "tenants" add constraint "tenants_slug_unique" unique ("slug");`);

    this.addSql(
      `create table "team_roles" ("id" serial primary key, "tenant_id" int not null, "name" varchar(100) not null, "label" jsonb not null);`,
    );
    this.addSql(
      `alter table "team_roles" add constraint "team_roles_tenant_id_name_unique" unique ("tenant_id", "name");`,
    );

    this.addSql(
      `create table "team_members" ("id" serial primary key, "tenant_id" int not null, "given_name" varchar(255) not null, "family_name" varchar(255) not null, "email" varchar(255) not null, "job_title" varchar(255) null, "phone" varchar(32) null, "role_id" int null, "avatar" jsonb null, "employed" boolean not null default true);`,
    );
    this.addSql(`create index "team_members_tenant_id_index" on "team_members" ("tenant_id");`);
    this.addSql(`create index "team_members_role_id_index" on "team_members" ("role_id");`);
    this.addSql(
      `create index "team_members_given_name_idx" on "team_members" ("tenant_id", lower("given_name"), "id") where "employed";`,
    );
    this.addSql(
      `create index "team_members_family_name_idx" on "team_members" ("tenant_id", lower("family_name"), "id") where "employed";`,
    );

    this.addSql(
      `create table "tags" ("id" serial primary key, "tenant_id" int not null, "name" jsonb not null, "parent_id" int null);`,
    );
    this.addSql(`create index "tags_tenant_id_index" on "tags" ("tenant_id");`);
    this.addSql(`create index "tags_parent_id_index" on "tags" ("parent_id");`);

    this.addSql(
      `create table "locations" ("id" serial primary key, "tenant_id" int not null, "slug" varchar(255) not null, "name" varchar(255) not null, "address_line_1" varchar(255) null, "address_line_2" varchar(255) null, "address_line_3" varchar(255) null, "locality" varchar(255) null, "administrative_area" varchar(255) null, "postal_code" varchar(50) null, "country_code" varchar(2) null, "latitude" double precision null, "longitude" double precision null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "locations_tenant_name_idx" on "locations" ("tenant_id", lower("name"), "id");`);
    this.addSql(`create index "locations_tenant_locality_idx" on "locations" ("tenant_id", lower("locality"), "id");`);
    this.addSql(
      `create index "locations_tenant_id_created_at_id_index" on "locations" ("tenant_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "locations" add constraint "locations_tenant_id_slug_unique" unique ("tenant_id", "slug");`,
    );

    this.addSql(`create table "job_types" ("id" serial primary key, "tenant_id" int not null, "name" jsonb not null);`);
    this.addSql(`create index "job_types_tenant_id_index" on "job_types" ("tenant_id");`);

    this.addSql(
      `create table "experience_levels" ("id" serial primary key, "tenant_id" int not null, "name" jsonb not null);`,
    );
    this.addSql(`create index "experience_levels_tenant_id_index" on "experience_levels" ("tenant_id");`);

    this.addSql(
      `create table "education_levels" ("id" serial primary key, "tenant_id" int not null, "name" jsonb not null);`,
    );
    this.addSql(`create index "education_levels_tenant_id_index" on "education_levels" ("tenant_id");`);

    this.addSql(
      `create table "departments" ("id" serial primary key, "tenant_id" int not null, "name" jsonb not null);`,
    );
    this.addSql(`create index "departments_tenant_id_index" on "departments" ("tenant_id");`);

    this.addSql(
      `create table "companies" ("id" serial primary key, "tenant_id" int not null, "name" varchar(255) not null);`,
    );
    this.addSql(`create index "companies_tenant_id_index" on "companies" ("tenant_id");`);

    this.addSql(
      `create table "company_locations" ("id" serial primary key, "tenant_id" int not null, "company_id" int not null, "name" varchar(255) not null, "city" varchar(255) null, "country_code" varchar(2) null);`,
    );
    this.addSql(`create index "company_locations_tenant_id_index" on "company_locations" ("tenant_id");`);
    this.addSql(`create index "company_locations_company_id_index" on "company_locations" ("company_id");`);

    this.addSql(
      `create table "candidates" ("id" serial primary key, "tenant_id" int not null, "slug" varchar(255) not null, "first_name" varchar(255) not null, "last_name" varchar(255) not null, "email" varchar(255) null, "phone" varchar(64) null, "linkedin_url" varchar(2048) null, "status" text not null default 'potential', "needs_completion" boolean not null default false, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`,
    );
    this.addSql(
      `alter table "candidates" add constraint "candidates_tenant_id_slug_unique" unique ("tenant_id", "slug");`,
    );
    this.addSql(`create unique index "candidates_tenant_email_unique" on "candidates" ("tenant_id", lower("email"));`);
    this.addSql(
      `alter table "candidates" add constraint "candidates_status_check" check ("status" in ('potential', 'waiting_for_intake', 'intake_scheduled', 'active_mediation', 'latent_mediation', 'upcoming_employee', 'employee', 'ex_employee', 'do_not_contact'));`,
    );

    this.addSql(
      `create table "articles" ("id" serial primary key, "tenant_id" int not null, "slug" varchar(255) not null, "type" text not null, "status" text not null default 'draft', "is_featured" boolean not null default false, "views_count" int not null default 0, "published_at" timestamptz null, "expires_at" timestamptz null, "created_at" timestamptz not null default now(), "featured_image" jsonb null);`,
    );
    this.addSql(
      `create index "articles_tenant_id_published_at_id_index" on "articles" ("tenant_id", "published_at", "id");`,
    );
    this.addSql(`alter table "articles" add constraint "articles_tenant_id_slug_unique" unique ("tenant_id", "slug");`);
    this.addSql(
      `alter table "articles" add constraint "articles_type_check" check ("type" in ('news', 'company_update', 'event', 'blog_post'));`,
    );
    this.addSql(
      `alter table "articles" add constraint "articles_status_check" check ("status" in ('draft', 'published'));`,
    );

    this.addSql(
      `create table "article_translations" ("id" serial primary key, "tenant_id" int not null, "article_id" int not null, "language" varchar(2) not null, "title" varchar(500) not null, "excerpt" text null, "body_html" text not null, "seo_title" varchar(500) null, "seo_description" text null);`,
    );
    this.addSql(`create index "article_translations_tenant_id_index" on "article_translations" ("tenant_id");`);
    this.addSql(
      `alter table "article_translations" add constraint "article_translations_article_id_language_unique" unique ("article_id", "language");`,
    );

    this.addSql(
      `create table "article_tags" ("article_id" int not null, "tag_id" int not null, primary key ("article_id", "tag_id"));`,
    );

    this.addSql(
      `create table "api_keys" ("id" serial primary key, "tenant_id" int not null, "name" varchar(255) not null, "key_hash" varchar(64) not null, "start" varchar(20) not null, "scopes" text[] not null default '{}', "created_at" timestamptz not null default now(), "last_used_at" timestamptz null, "revoked_at" timestamptz null);`,
    );
    this.addSql(`create index "api_keys_tenant_id_index" on "api_keys" ("tenant_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);

    this.addSql(
      `create table "idempotency_records" ("id" serial primary key, "api_key_id" int not null, "operation" varchar(100) not null, "key" varchar(255) not null, "request_hash" varchar(64) not null, "response_status" int null, "response_body" jsonb null, "response_headers" jsonb null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null);`,
    );
    this.addSql(`create index "idempotency_records_expires_at_index" on "idempotency_records" ("expires_at");`);
    this.addSql(
      `alter table "idempotency_records" add constraint "idempotency_records_api_key_id_operation_key_unique" unique ("api_key_id", "operation", "key");`,
    );

    this.addSql(
      `create table "users" ("id" serial primary key, "tenant_id" int not null, "name" varchar(255) not null, "email" varchar(255) not null, "role" varchar(50) not null, "password_hash" varchar(255) null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "users_tenant_id_index" on "users" ("tenant_id");`);
    this.addSql(`create unique index "users_tenant_email_unique" on "users" ("tenant_id", lower("email"));`);

    this.addSql(
      `create table "intakes" ("id" serial primary key, "tenant_id" int not null, "candidate_id" int not null, "user_id" int null, "status" varchar(50) not null default 'open', "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "intakes_tenant_id_index" on "intakes" ("tenant_id");`);
    this.addSql(`create index "intakes_candidate_id_index" on "intakes" ("candidate_id");`);

    this.addSql(
      `create table "resume_processings" ("id" uuid not null, "tenant_id" int not null, "user_id" int not null, "status" text not null default 'queued', "filename" varchar(255) not null, "mime_type" varchar(255) not null, "size" int not null, "content" bytea not null, "create_intake" boolean not null default false, "candidate_id" int null, "intake_id" int null, "error" text null, "attempts" int not null default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`,
    );
    this.addSql(
      `create index "resume_processings_tenant_id_status_updated_at_index" on "resume_processings" ("tenant_id", "status", "updated_at");`,
    );
    this.addSql(
      `alter table "resume_processings" add constraint "resume_processings_status_check" check ("status" in ('queued', 'processing', 'completed', 'failed'));`,
    );

    this.addSql(
      `create table "candidate_users" ("candidate_id" int not null, "user_id" int not null, primary key ("candidate_id", "user_id"));`,
    );

    this.addSql(
      `create table "admin_sessions" ("id" serial primary key, "token_hash" varchar(64) not null, "tenant_id" int not null, "user_id" int not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, "revoked_at" timestamptz null);`,
    );
    this.addSql(
      `alter table "admin_sessions" add constraint "admin_sessions_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(`create index "admin_sessions_tenant_id_index" on "admin_sessions" ("tenant_id");`);
    this.addSql(`create index "admin_sessions_user_id_index" on "admin_sessions" ("user_id");`);

    this.addSql(
      `create table "vacancies" ("id" serial primary key, "tenant_id" int not null, "slug" varchar(255) not null, "title" varchar(255) not null, "summary" text null, "description" text null, "requirements" text null, "offer" text null, "language" varchar(2) not null, "status" text not null default 'draft', "channels" text[] not null default '{}', "accepts_applications" boolean not null default true, "published_at" timestamptz null, "ends_at" timestamptz null, "created_at" timestamptz not null default now(), "views_count" int not null default 0, "location_id" int null, "department_id" int null, "company_location_id" int null, "compensation_min" double precision null, "compensation_max" double precision null, "compensation_currency" varchar(3) null, "compensation_period" varchar(20) null, "header_image" jsonb null, "canonical_url" varchar(2048) null);`,
    );
    this.addSql(
      `create index "vacancies_visible_published_idx" on "vacancies" ("tenant_id", "published_at" desc, "id" desc) where "status" = 'published' and 'api' = any("channels");`,
    );
    this.addSql(
      `create index "vacancies_visible_created_idx" on "vacancies" ("tenant_id", "created_at" desc, "id" desc) where "status" = 'published' and 'api' = any("channels");`,
    );
    this.addSql(
      `create index "vacancies_visible_title_idx" on "vacancies" ("tenant_id", lower("title"), "id") where "status" = 'published' and 'api' = any("channels");`,
    );
    this.addSql(
      `create index "vacancies_visible_cover_idx" on "vacancies" ("tenant_id", "id") include ("published_at", "ends_at", "language", "location_id", "department_id", "company_location_id") where "status" = 'published' and 'api' = any("channels");`,
    );
    this.addSql(`create index "vacancies_title_trgm_idx" on "vacancies" using gin (lower("title") gin_trgm_ops);`);
    this.addSql(`create index "vacancies_summary_trgm_idx" on "vacancies" using gin (lower("summary") gin_trgm_ops);`);
    this.addSql(`create index "vacancies_location_id_index" on "vacancies" ("location_id");`);
    this.addSql(`create index "vacancies_department_id_index" on "vacancies" ("department_id");`);
    this.addSql(`create index "vacancies_company_location_id_index" on "vacancies" ("company_location_id");`);
    this.addSql(
      `alter table "vacancies" add constraint "vacancies_tenant_id_slug_unique" unique ("tenant_id", "slug");`,
    );
    this.addSql(
      `alter table "vacancies" add constraint "vacancies_status_check" check ("status" in ('draft', 'published', 'unpublished'));`,
    );

    this.addSql(
      `create table "applications" ("id" serial primary key, "tenant_id" int not null, "vacancy_id" int not null, "candidate_id" int not null, "api_key_id" int null, "privacy_policy_accepted" boolean not null default false, "privacy_policy_accepted_at" timestamptz null, "tracking_ip_address" varchar(45) null, "tracking_user_agent" text null, "tracking_referrer" text null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "applications_vacancy_id_index" on "applications" ("vacancy_id");`);
    this.addSql(`create index "applications_candidate_id_index" on "applications" ("candidate_id");`);
    this.addSql(
      `create index "applications_tenant_id_created_at_index" on "applications" ("tenant_id", "created_at");`,
    );

    this.addSql(
      `create table "documents" ("id" serial primary key, "tenant_id" int not null, "application_id" int not null, "type" text not null, "position" int not null default 0, "filename" varchar(255) not null, "mime_type" varchar(255) not null, "size" int not null, "content" bytea not null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "documents_tenant_id_index" on "documents" ("tenant_id");`);
    this.addSql(`create index "documents_application_id_index" on "documents" ("application_id");`);
    this.addSql(
      `alter table "documents" add constraint "documents_type_check" check ("type" in ('resume', 'cover_letter', 'additional'));`,
    );

    this.addSql(
      `create table "vacancy_education_levels" ("vacancy_id" int not null, "education_level_id" int not null, primary key ("vacancy_id", "education_level_id"));`,
    );

    this.addSql(
      `create table "vacancy_experience_levels" ("vacancy_id" int not null, "experience_level_id" int not null, primary key ("vacancy_id", "experience_level_id"));`,
    );

    this.addSql(
      `create table "vacancy_job_types" ("vacancy_id" int not null, "job_type_id" int not null, primary key ("vacancy_id", "job_type_id"));`,
    );

    this.addSql(
      `create table "vacancy_tags" ("vacancy_id" int not null, "tag_id" int not null, primary key ("vacancy_id", "tag_id"));`,
    );

    this.addSql(
      `alter table "team_roles" add constraint "team_roles_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "team_members" add constraint "team_members_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "team_members" add constraint "team_members_role_id_foreign" foreign key ("role_id") references "team_roles" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "tags" add constraint "tags_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "tags" add constraint "tags_parent_id_foreign" foreign key ("parent_id") references "tags" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "locations" add constraint "locations_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "job_types" add constraint "job_types_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "experience_levels" add constraint "experience_levels_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "education_levels" add constraint "education_levels_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "departments" add constraint "departments_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "companies" add constraint "companies_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "company_locations" add constraint "company_locations_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "company_locations" add constraint "company_locations_company_id_foreign" foreign key ("company_id") references "companies" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "candidates" add constraint "candidates_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "articles" add constraint "articles_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "article_translations" add constraint "article_translations_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "article_translations" add constraint "article_translations_article_id_foreign" foreign key ("article_id") references "articles" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "article_tags" add constraint "article_tags_article_id_foreign" foreign key ("article_id") references "articles" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "article_tags" add constraint "article_tags_tag_id_foreign" foreign key ("tag_id") references "tags" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "api_keys" add constraint "api_keys_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "idempotency_records" add constraint "idempotency_records_api_key_id_foreign" foreign key ("api_key_id") references "api_keys" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "users" add constraint "users_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "intakes" add constraint "intakes_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "intakes" add constraint "intakes_candidate_id_foreign" foreign key ("candidate_id") references "candidates" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "intakes" add constraint "intakes_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "resume_processings" add constraint "resume_processings_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "resume_processings" add constraint "resume_processings_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "resume_processings" add constraint "resume_processings_candidate_id_foreign" foreign key ("candidate_id") references "candidates" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "resume_processings" add constraint "resume_processings_intake_id_foreign" foreign key ("intake_id") references "intakes" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "candidate_users" add constraint "candidate_users_candidate_id_foreign" foreign key ("candidate_id") references "candidates" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "candidate_users" add constraint "candidate_users_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "admin_sessions" add constraint "admin_sessions_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "admin_sessions" add constraint "admin_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "vacancies" add constraint "vacancies_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "vacancies" add constraint "vacancies_location_id_foreign" foreign key ("location_id") references "locations" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "vacancies" add constraint "vacancies_department_id_foreign" foreign key ("department_id") references "departments" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "vacancies" add constraint "vacancies_company_location_id_foreign" foreign key ("company_location_id") references "company_locations" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "applications" add constraint "applications_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "applications" add constraint "applications_vacancy_id_foreign" foreign key ("vacancy_id") references "vacancies" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "applications" add constraint "applications_candidate_id_foreign" foreign key ("candidate_id") references "candidates" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "applications" add constraint "applications_api_key_id_foreign" foreign key ("api_key_id") references "api_keys" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "documents" add constraint "documents_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "documents" add constraint "documents_application_id_foreign" foreign key ("application_id") references "applications" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "vacancy_education_levels" add constraint "vacancy_education_levels_vacancy_id_foreign" foreign key ("vacancy_id") references "vacancies" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "vacancy_education_levels" add constraint "vacancy_education_levels_education_level_id_foreign" foreign key ("education_level_id") references "education_levels" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "vacancy_experience_levels" add constraint "vacancy_experience_levels_vacancy_id_foreign" foreign key ("vacancy_id") references "vacancies" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "vacancy_experience_levels" add constraint "vacancy_experience_levels_experience_level_id_foreign" foreign key ("experience_level_id") references "experience_levels" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "vacancy_job_types" add constraint "vacancy_job_types_vacancy_id_foreign" foreign key ("vacancy_id") references "vacancies" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "vacancy_job_types" add constraint "vacancy_job_types_job_type_id_foreign" foreign key ("job_type_id") references "job_types" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "vacancy_tags" add constraint "vacancy_tags_vacancy_id_foreign" foreign key ("vacancy_id") references "vacancies" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "vacancy_tags" add constraint "vacancy_tags_tag_id_foreign" foreign key ("tag_id") references "tags" ("id") on update cascade on delete cascade;`,
    );
  }
}
