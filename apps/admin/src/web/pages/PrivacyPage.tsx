import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ActionError, DataTable } from '../components/DataTable.tsx';
import { api, useErasePerson, useExportPerson, usePerson } from '../queries.ts';
import { useConfirmation } from '../confirmation.ts';
import { downloadJson } from '../download.ts';
import { errorMessage } from '../trpc.ts';
import { formatDateTime } from '../format.ts';

type THeld = {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  applications: number;
  documents: number;
  resumes: number;
};

function nameOf(candidate: THeld): string {
  return `${candidate.first_name} ${candidate.last_name}`.trim() || `Candidate ${candidate.id}`;
}

function plural(count: number, one: string, many: string = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What the administrator types to confirm an erasure: the candidate's email (their id when they have none). */
function confirmationPhrase(candidate: THeld): string {
  return candidate.email ?? `candidate ${candidate.id}`;
}

/**
 * Requests of a person about their data (GDPR art. 15 and 17): find what is held by email, export it as a JSON file,
 * erase it after typing the email. Exports and erasures are recorded in the audit log.
 */
export function PrivacyPage() {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState('');
  const [email, setEmail] = useState<string | undefined>();
  const person = usePerson(email);
  const exportPerson = useExportPerson();
  const erase = useErasePerson();
  const erasing = useConfirmation<THeld>(erase);
  const [typed, setTyped] = useState('');
  const [notice, setNotice] = useState<string | undefined>();
  const emailId = useId();
  const confirmId = useId();

  const find = (event: FormEvent) => {
    event.preventDefault();
    const value = draft.trim();
    if (!value) return;
    setNotice(undefined);
    exportPerson.reset();
    if (value === email) void person.refetch();
    else setEmail(value);
  };

  const download = (candidate: THeld) => {
    setNotice(undefined);
    exportPerson.mutate(
      { candidate_id: candidate.id },
      {
        onSuccess: (result) => {
          downloadJson(`candidate-${candidate.id}-export.json`, result);
          setNotice(`Export of candidate ${candidate.id} downloaded as candidate-${candidate.id}-export.json.`);
          void queryClient.invalidateQueries({ queryKey: api.admin.audit.list.pathKey() });
        },
      },
    );
  };

  const askErase = (candidate: THeld) => {
    setTyped('');
    setNotice(undefined);
    erasing.ask(candidate);
  };

  const target = erasing.target;
  const confirmed = target !== undefined && typed.trim().toLowerCase() === confirmationPhrase(target).toLowerCase();
  const confirmErase = () => {
    if (!target || !confirmed) return;
    erase.mutate(
      { candidate_id: target.id },
      {
        onSuccess: async (result) => {
          erasing.dismiss();
          setTyped('');
          setNotice(
            `Candidate ${target.id} erased: ${plural(result.erased_candidates, 'candidate')} and ${plural(result.erased_applications, 'application')} ` +
              'with their documents are gone.',
          );
          await queryClient.invalidateQueries({ queryKey: api.admin.privacy.pathKey() });
          void queryClient.invalidateQueries({ queryKey: api.admin.audit.list.pathKey() });
          void queryClient.invalidateQueries({ queryKey: api.admin.overview.queryKey() });
        },
      },
    );
  };

  const rows = person.data?.candidates ?? [];
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Privacy</h1>
          <p className="muted">
            When someone asks what you hold about them, or asks to be forgotten: find them by email, export their data,
            or erase it.
          </p>
        </div>
      </div>

      <section className="card" aria-labelledby="find-heading">
        <div className="card-header">
          <h2 id="find-heading" className="card-title">
            Find a person
          </h2>
        </div>
        <search aria-labelledby="find-heading">
          <form className="search-form" onSubmit={find}>
            <div className="field">
              <label htmlFor={emailId}>Email address</label>
              <input
                id={emailId}
                className="input"
                type="email"
                value={draft}
                maxLength={255}
                required
                autoComplete="off"
                spellCheck={false}
                placeholder="jane.doe@example.com"
                onChange={(event) => setDraft(event.target.value)}
              />
            </div>
            <button
              type="submit"
              className="button button-primary"
              disabled={person.isFetching}
              aria-busy={person.isFetching}
            >
              Find
            </button>
          </form>
        </search>
        <p className="hint muted">
          Every candidate with this email address (in any letter case) is listed, with what is held about them.
        </p>
      </section>

      {notice && (
        <p className="banner banner-success" role="status">
          {notice}
        </p>
      )}

      {email !== undefined && (
        <section className="card table-card" aria-labelledby="held-heading">
          <div className="card-header">
            <h2 id="held-heading" className="card-title">
              What is held
            </h2>
            <ActionError error={exportPerson.error} />
            <span className="muted">{person.data ? `${plural(rows.length, 'candidate')} with ${email}` : ''}</span>
          </div>
          {person.isPending ? (
            <p className="empty" role="status">
              Searching…
            </p>
          ) : person.isError ? (
            <p className="form-error" role="alert">
              {errorMessage(person.error)}
            </p>
          ) : rows.length === 0 ? (
            <p className="empty" role="status">
              Nothing is held about {email}.
            </p>
          ) : (
            <DataTable
              columns={['Name', 'Email', 'Phone', 'Created', 'Applications', 'Documents', 'Resumes']}
              labelledBy="held-heading"
              actions
            >
              {rows.map((candidate) => (
                <tr key={candidate.id}>
                  <th scope="row">
                    {nameOf(candidate)}
                    <span className="small muted"> #{candidate.id}</span>
                  </th>
                  <td>{candidate.email ?? <span className="muted">none</span>}</td>
                  <td className="nowrap">{candidate.phone ?? <span className="muted">none</span>}</td>
                  <td>
                    <time dateTime={candidate.created_at}>{formatDateTime(candidate.created_at)}</time>
                  </td>
                  <td className="number">{candidate.applications}</td>
                  <td className="number">{candidate.documents}</td>
                  <td className="number">{candidate.resumes}</td>
                  <td className="actions">
                    <div className="row-actions">
                      <button
                        type="button"
                        className="button button-small"
                        onClick={() => download(candidate)}
                        disabled={exportPerson.isPending}
                        aria-busy={exportPerson.isPending && exportPerson.variables?.candidate_id === candidate.id}
                      >
                        Export
                      </button>
                      <button
                        type="button"
                        className="button button-small button-danger-outline"
                        onClick={() => askErase(candidate)}
                      >
                        Erase
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </section>
      )}

      <ConfirmDialog
        open={target !== undefined}
        title={`Erase ${target ? nameOf(target) : ''}?`}
        confirmLabel="Erase"
        pending={erase.isPending}
        confirmDisabled={!confirmed}
        error={erase.error ? errorMessage(erase.error) : undefined}
        onConfirm={confirmErase}
        onCancel={erasing.dismiss}
      >
        {target && (
          <>
            <p>
              Everything held about candidate {target.id} is deleted: {plural(target.applications, 'application')},{' '}
              {plural(target.documents, 'document')}, {plural(target.resumes, 'resume upload')} and every stored copy of
              them. Webhooks and the change feed are told the id only. This cannot be undone.
            </p>
            <div className="field">
              <label htmlFor={confirmId}>
                Type <span className="mono">{confirmationPhrase(target)}</span> to confirm
              </label>
              <input
                id={confirmId}
                className="input"
                type="text"
                value={typed}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => setTyped(event.target.value)}
              />
            </div>
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
