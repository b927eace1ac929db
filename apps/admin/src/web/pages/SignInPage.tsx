import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, isSessionQuery, useSignIn } from '../queries.ts';
import { errorMessage } from '../trpc.ts';

export function SignInPage() {
  const queryClient = useQueryClient();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const emailId = useId();
  const passwordId = useId();
  const errorId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(
      { email, password },
      {
        onSuccess: async () => {
          setPassword('');
          queryClient.removeQueries({ predicate: (query) => !isSessionQuery(query) });
          await queryClient.invalidateQueries({ queryKey: api.admin.me.queryKey() });
        },
      },
    );
  };

  const error = signIn.error ? errorMessage(signIn.error) : undefined;
  return (
    <main className="sign-in">
      <form className="card sign-in-card" onSubmit={submit} aria-describedby={error ? errorId : undefined}>
        <div className="brand brand-large" aria-hidden="true">
          <span className="brand-mark">C</span> Careers Admin
        </div>
        <h1 className="sign-in-title">Sign in</h1>
        <p className="muted">Manage your career site’s API keys and see how the API is doing.</p>
        <div className="field">
          <label htmlFor={emailId}>Email</label>
          <input
            id={emailId}
            className="input"
            type="email"
            autoComplete="username"
            required
            autoFocus
            value={email}
            aria-invalid={error ? true : undefined}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={passwordId}>Password</label>
          <input
            id={passwordId}
            className="input"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            aria-invalid={error ? true : undefined}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        {error && (
          <p id={errorId} className="form-error" role="alert">
            {error}
          </p>
        )}
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={signIn.isPending}
          aria-busy={signIn.isPending}
        >
          Sign in
        </button>
      </form>
    </main>
  );
}
