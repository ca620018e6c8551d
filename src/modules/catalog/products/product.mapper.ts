import { centsToNumber, toCents } from '../../../common/money';
import { formatTimestamp } from '../../../common/time';
import { CreateProductDto, ProductDto, UpdateProductDto } from './dto/product.dto';
import { Product } from './product.entity';

export function toProductDto(product: Product, currency: string): ProductDto {
  return {
    id: product.id,
    pid: product.pid,
    name: product.name,
    type: product.type,
    price: product.price === null ? null : centsToNumber(product.price),
    currency,
    description: product.description,
    sale_page_url: product.salePageUrl,
    image_url: product.imageUrl,
    category: product.category,
    subcategory: product.subcategory,
    contact_number: product.contactNumber,
    status_2: product.reviewStatus,
    license_keys: { enabled: product.licenseKeysEnabled, activation_limit: product.licenseActivationLimit },
    created_at: formatTimestamp(product.createdAt),
    updated_at: formatTimestamp(product.updatedAt),
  };
}

/** The entity fields a create or update DTO sets; absent (undefined) fields are left out. */
export function productChanges(dto: CreateProductDto | UpdateProductDto): Partial<Product> {
  const changes: Partial<Product> = {
    name: dto.name,
    type: dto.type,
    price: dto.price === undefined ? undefined : dto.price === null ? null : toCents(dto.price),
    description: dto.description,
    salePageUrl: dto.sale_page_url,
    imageUrl: dto.image_url,
    category: dto.category,
    subcategory: dto.subcategory,
    contactNumber: dto.contact_number,
    licenseKeysEnabled: dto.license_keys?.enabled,
    licenseActivationLimit: dto.license_keys ? (dto.license_keys.activation_limit ?? null) : undefined,
  };
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<Product>;
}
