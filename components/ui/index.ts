export { Alert, type AlertProps, type AlertTone } from "./Alert";
export { Badge, type BadgeProps, type BadgeTone } from "./Badge";
export {
  Button,
  type ButtonProps,
  type ButtonSize,
  type ButtonStyleOptions,
  type ButtonVariant,
  buttonStyles,
} from "./Button";
export {
  Card,
  CardBody,
  type CardBodyProps,
  CardFooter,
  type CardFooterProps,
  CardHeader,
  type CardHeaderProps,
  type CardProps,
} from "./Card";
export { CodeBlock, type CodeBlockProps } from "./CodeBlock";
export { CopyButton, type CopyButtonProps } from "./CopyButton";
export { type ClassValue, cn, focusRing } from "./cn";
export { EmptyState, type EmptyStateProps } from "./EmptyState";
export { Field, type FieldControlProps, type FieldProps, fieldIds } from "./Field";
export {
  codeInput,
  DescriptionField,
  InputField,
  type InputFieldProps,
  LabeledInput,
  monoInput,
  NameField,
  namedOptions,
  SelectField,
  type SelectFieldProps,
  type SelectOption,
  secretInput,
  TextareaField,
  type TextareaFieldProps,
  valueOptions,
} from "./FieldControls";
export { controlStyles, Input, type InputProps } from "./Input";
export { type KeyValueItem, KeyValueList, type KeyValueListProps } from "./KeyValueList";
export { Label, type LabelProps } from "./Label";
export { PageHeader, type PageHeaderProps } from "./PageHeader";
export { PendingButton, type PendingButtonProps } from "./PendingButton";
export { RelativeTime, type RelativeTimeProps } from "./RelativeTime";
export { SECRET_ONCE_WARNING, SecretOnce, type SecretOnceProps } from "./SecretOnce";
export { SectionNav, type SectionNavItem, type SectionNavProps } from "./SectionNav";
export { Select, type SelectProps } from "./Select";
export { Skeleton, type SkeletonProps, TableSkeleton, type TableSkeletonProps } from "./Skeleton";
export { Spinner, type SpinnerProps, type SpinnerSize } from "./Spinner";
export { SubmitButton, type SubmitButtonProps } from "./SubmitButton";
export {
  ActionsHeader,
  type ColumnHeading,
  FullRow,
  type FullRowProps,
  HeaderRow,
  Table,
  type TableProps,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "./Table";
export { Textarea, type TextareaProps } from "./Textarea";
