import { formatTimestamp } from '../../../common/time';
import type { Customer } from './customer.entity';
import type { CustomerDto } from './dto/customer.dto';

export function toCustomerDto(customer: Customer): CustomerDto {
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    mobile_number: customer.mobileNumber,
    payment_number: customer.paymentNumber,
    created_at: formatTimestamp(customer.createdAt),
    updated_at: formatTimestamp(customer.updatedAt),
  };
}
