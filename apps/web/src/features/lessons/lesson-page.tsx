import { PagePlaceholder } from '@/ui/page-placeholder.tsx';

/** Lessons of the account in the path; filled by the lessons area. */
export default function LessonPage() {
  return <PagePlaceholder area="ncrLesson" />;
}
