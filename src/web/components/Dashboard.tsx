// The conversations screen. Its list, filters and live updates come with the conversations API;
// until then it says so plainly and shows no sample data.
import { Page } from "./Page.tsx";

export function Dashboard() {
  return (
    <Page title="Conversations">
      <div class="placeholder">
        <p>
          Conversation views arrive with the conversations API: the list of conversations (mine, unassigned, all), filters by status,
          inbox, team and label, unread counts and live updates.
        </p>
        <p>There is nothing to show here yet.</p>
      </div>
    </Page>
  );
}
