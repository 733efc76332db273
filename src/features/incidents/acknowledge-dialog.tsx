import { useAcknowledgeIncidentMutation } from '../../api/incidents-api';
import { FormDialog } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-fields';
import { serverMessage, useSubmit } from '../../components/use-submit';
import { acknowledgeIncidentSchema, INCIDENT_KIND_LABELS, INCIDENT_NOTE_MAX, WHOLE_SERVICE, type Incident } from '../../domain/incidents';

/**
 * 'Acknowledge': the person takes the incident on, with an optional note on what they are doing,
 * so colleagues (on the card and the live stream) know someone is on it. Once only: a colleague who
 * was quicker is named in the error, and the list shows them.
 */
export function AcknowledgeIncidentDialog({ incident, onClose }: { incident: Incident | null; onClose: () => void }) {
  const [acknowledge] = useAcknowledgeIncidentMutation();
  const submit = useSubmit();
  return (
    <FormDialog
      open={incident !== null}
      onClose={onClose}
      title="Acknowledge the incident"
      subtitle={incident ? `${INCIDENT_KIND_LABELS[incident.kind]} · ${incident.serviceCode ?? WHOLE_SERVICE}. Your name shows on it for everyone; say what you are doing about it if you like.` : undefined}
      schema={acknowledgeIncidentSchema}
      initialValues={{ note: '' }}
      submitLabel="Acknowledge"
      onSubmit={async ({ note }, helpers) =>
        incident ? submit(() => acknowledge({ id: incident._id, note: note?.trim() ?? '' }).unwrap(), { success: 'Incident acknowledged', failure: serverMessage, helpers }) : false
      }
    >
      <FormTextField name="note" label="Note (optional)" multiline minRows={2} fullWidth margin="normal" slotProps={{ htmlInput: { maxLength: INCIDENT_NOTE_MAX } }} />
    </FormDialog>
  );
}
