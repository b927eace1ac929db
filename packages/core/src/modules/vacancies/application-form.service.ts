import type { TDb } from '../../db/kysely.ts';
import { AppError } from '../../lib/errors.ts';
import { pickTranslation } from '../../lib/i18n.ts';
import { isStorableText } from '../../lib/validation.ts';
import { visibleVacancy } from './vacancy-visibility.ts';
import type { TVacancyQuestion } from './vacancy-question.ts';
import {
  ZApplicationForm,
  type TApplicationForm,
  type TFormField,
  type TGetApplicationFormInput,
} from './application-form.schema.ts';
import { contentKey } from '../content/content-cache.ts';
import { SerializedForm, servedAnswer } from '../content/serialized-answer.ts';
import type { TVacancyReadContext } from './vacancy.service.ts';

type TStandardField = Omit<TFormField, 'label'> & { label: Record<string, string> };

/** The fields of every application (POST /applications), labelled in the languages career sites use most. */
const STANDARD_FIELDS: TStandardField[] = [
  {
    key: 'candidate.given_name',
    type: 'text',
    required: true,
    max_length: 255,
    label: { en: 'First name', nl: 'Voornaam', de: 'Vorname', fr: 'Prénom', es: 'Nombre', pl: 'Imię' },
  },
  {
    key: 'candidate.family_name',
    type: 'text',
    required: true,
    max_length: 255,
    label: { en: 'Last name', nl: 'Achternaam', de: 'Nachname', fr: 'Nom', es: 'Apellidos', pl: 'Nazwisko' },
  },
  {
    key: 'candidate.email',
    type: 'email',
    required: true,
    max_length: 255,
    label: {
      en: 'Email address',
      nl: 'E-mailadres',
      de: 'E-Mail-Adresse',
      fr: 'Adresse e-mail',
      es: 'Correo electrónico',
      pl: 'Adres e-mail',
    },
  },
  {
    key: 'candidate.mobile_phone',
    type: 'phone',
    required: false,
    max_length: 64,
    label: {
      en: 'Mobile phone',
      nl: 'Mobiel nummer',
      de: 'Mobiltelefon',
      fr: 'Téléphone portable',
      es: 'Teléfono móvil',
      pl: 'Telefon komórkowy',
    },
  },
  {
    key: 'candidate.fixed_phone',
    type: 'phone',
    required: false,
    max_length: 64,
    label: {
      en: 'Phone',
      nl: 'Vast telefoonnummer',
      de: 'Festnetztelefon',
      fr: 'Téléphone fixe',
      es: 'Teléfono fijo',
      pl: 'Telefon stacjonarny',
    },
  },
  {
    key: 'candidate.linkedin_url',
    type: 'url',
    required: false,
    max_length: 2048,
    label: {
      en: 'LinkedIn profile',
      nl: 'LinkedIn-profiel',
      de: 'LinkedIn-Profil',
      fr: 'Profil LinkedIn',
      es: 'Perfil de LinkedIn',
      pl: 'Profil LinkedIn',
    },
  },
  {
    key: 'documents.resume',
    type: 'file',
    required: false,
    label: { en: 'Resume', nl: 'Cv', de: 'Lebenslauf', fr: 'CV', es: 'Currículum', pl: 'CV' },
  },
  {
    key: 'documents.cover_letter',
    type: 'file',
    required: false,
    label: {
      en: 'Cover letter',
      nl: 'Motivatiebrief',
      de: 'Anschreiben',
      fr: 'Lettre de motivation',
      es: 'Carta de presentación',
      pl: 'List motywacyjny',
    },
  },
  {
    key: 'privacy_policy_accepted',
    type: 'boolean',
    required: false,
    label: {
      en: 'I accept the privacy policy',
      nl: 'Ik ga akkoord met de privacyverklaring',
      de: 'Ich akzeptiere die Datenschutzerklärung',
      fr: 'J’accepte la politique de confidentialité',
      es: 'Acepto la política de privacidad',
      pl: 'Akceptuję politykę prywatności',
    },
  },
];

function questionField(question: TVacancyQuestion, label: (names: Record<string, string>) => string): TFormField {
  return {
    key: question.key,
    label: label(question.label),
    type: question.type,
    required: question.required,
    ...(question.options
      ? { options: question.options.map((option) => ({ value: option.value, label: label(option.label) })) }
      : {}),
    ...(question.max_length !== undefined ? { max_length: question.max_length } : {}),
  };
}

/** The application form of a visible vacancy, or null (no stored slug holds NUL or an unpaired surrogate). */
async function applicationForm(
  db: TDb,
  tenant: { defaultLanguage: string },
  input: TGetApplicationFormInput,
): Promise<TApplicationForm | null> {
  if (!isStorableText(input.slug)) return null;
  const vacancy = await db
    .selectFrom('vacancies')
    .select(['id', 'slug', 'questions'])
    .where(visibleVacancy('vacancies'))
    .where('slug', '=', input.slug)
    .executeTakeFirst();
  if (!vacancy) return null;
  const label = (names: Record<string, string>) => pickTranslation(names, input.language, tenant.defaultLanguage) ?? '';
  return {
    data: {
      vacancy: { id: vacancy.id, slug: vacancy.slug },
      fields: [
        ...STANDARD_FIELDS.map((field) => ({ ...field, label: label(field.label) })),
        ...vacancy.questions.map((question) => questionField(question, label)),
      ],
    },
  };
}

/**
 * The application form of a visible vacancy: the standard fields, then the vacancy's questions, with labels in
 * the requested language, else the tenant's default language, else the alphabetically first one. 404 otherwise.
 */
export async function getApplicationForm(
  ctx: TVacancyReadContext,
  input: TGetApplicationFormInput,
): Promise<TApplicationForm> {
  const answer = await ctx.services.content.read(ctx, {
    key: contentKey('vacancies.application-form', ctx.tenant, input),
    compute: async () => {
      const form = await applicationForm(ctx.db, ctx.tenant, input);
      return { value: form && { form, serialized: new SerializedForm() } };
    },
  });
  if (!answer.value) throw new AppError('NOT_FOUND');
  const { form, serialized } = answer.value;
  return servedAnswer(ctx, { form: serialized, live: undefined }, ZApplicationForm, '', () => form);
}
