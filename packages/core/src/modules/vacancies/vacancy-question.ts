/** Types of the questions a vacancy's application form may ask (tenant document `vacancies[].questions`). */
export const QUESTION_TYPES = ['text', 'textarea', 'number', 'boolean', 'single_select', 'multi_select'] as const;
export type TQuestionType = (typeof QUESTION_TYPES)[number];

/** A question as stored on the vacancy (labels per lower-case language). */
export type TVacancyQuestion = {
  key: string;
  label: Record<string, string>;
  type: TQuestionType;
  required: boolean;
  options?: { value: string; label: Record<string, string> }[];
  max_length?: number;
};
